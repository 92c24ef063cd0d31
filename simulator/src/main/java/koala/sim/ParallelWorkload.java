package koala.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Synthetic workloads of rigid parallel jobs for a seed: Poisson arrivals, job sizes drawn from a
 * list of sizes with weights, runtimes exponential or lognormal. The load sets the arrival rate.
 *
 * <p>Arrivals, sizes and runtimes draw from three streams of their own, and arrivals are drawn as
 * gaps of mean 1 scaled by the rate: workloads of one seed at two loads have the very same jobs,
 * only closer together. So a figure at load 0.9 differs from one at 0.3 by the load alone.
 *
 * @param sizes   node counts and their weights
 * @param runtime how runtimes are drawn, with their mean
 */
public record ParallelWorkload(Sizes sizes, Runtimes runtime) {

    /** The default: sizes 1, 2, 4, 8, 16 equally likely; runtimes exponential with a mean of 900 s. */
    public static final ParallelWorkload DEFAULT = new ParallelWorkload(Sizes.parse("1,2,4,8,16"),
            Runtimes.parse("exponential:900"));

    /**
     * Arrivals per second that offer {@code load} of {@code capacity} nodes: each job brings
     * size × runtime node-seconds, on average E[size] × E[runtime] (drawn independently), so the
     * rate is {@code load · capacity / (E[size] · E[runtime])}. Runtimes as on one cluster: a
     * co-allocated job that runs longer offers more.
     */
    public double arrivalRate(double load, int capacity) {
        if (!(load > 0) || capacity < 1) {
            throw new IllegalArgumentException("need a positive load and capacity, got " + load + ", " + capacity);
        }
        return load * capacity / (sizes.mean() * runtime.meanSeconds());
    }

    /** {@code jobs} jobs arriving at {@code rate} per second, numbered from 1 in arrival order. */
    public List<ParallelJob> generate(int jobs, double rate, long seed) {
        if (jobs < 0 || !(rate > 0)) {
            throw new IllegalArgumentException("need a number of jobs and a positive rate, got " + jobs + ", " + rate);
        }
        Random arrivals = new Random(seed);
        Random size = new Random(seed * 0x9E3779B97F4A7C15L + 1);
        Random length = new Random(seed * 0x9E3779B97F4A7C15L + 2);
        List<ParallelJob> out = new ArrayList<>(jobs);
        double gaps = 0;
        for (int i = 1; i <= jobs; i++) {
            gaps += -Math.log(1 - arrivals.nextDouble());
            // at least a millisecond, the simulator's tick
            out.add(ParallelJob.of(i, gaps / rate, sizes.draw(size), Math.max(0.001, runtime.draw(length))));
        }
        return out;
    }

    /** The workload of {@code jobs} jobs offering {@code load} of {@code capacity} nodes. */
    public List<ParallelJob> atLoad(double load, int capacity, int jobs, long seed) {
        return generate(jobs, arrivalRate(load, capacity), seed);
    }

    /** "1,2,4,8,16 equally likely; exponential runtimes, mean 900 s". */
    public String describe() {
        return sizes.describe() + "; " + runtime.describe();
    }

    /**
     * Job sizes and their weights, e.g. {@code "1,2,4,8,16"} (equally likely) or
     * {@code "1:4,2:2,4:2,8:1,16:1"} (weights, not necessarily summing to 1).
     */
    public record Sizes(List<Integer> nodes, List<Double> weights) {
        public Sizes {
            nodes = List.copyOf(nodes);
            weights = List.copyOf(weights);
            if (nodes.isEmpty() || nodes.size() != weights.size()) {
                throw new IllegalArgumentException("job sizes: need at least one size, each with a weight");
            }
            for (int i = 0; i < nodes.size(); i++) {
                double w = weights.get(i);
                if (nodes.get(i) < 1 || !(w > 0) || Double.isInfinite(w)) {
                    throw new IllegalArgumentException("job sizes: a size is at least 1 node and a weight above 0, got "
                            + nodes.get(i) + ":" + format(w));
                }
            }
        }

        public static Sizes parse(String spec) {
            List<Integer> nodes = new ArrayList<>();
            List<Double> weights = new ArrayList<>();
            try {
                for (String part : spec.strip().split("\\s*,\\s*")) {
                    String[] sw = part.split(":", -1);
                    if (sw.length > 2) {
                        throw new NumberFormatException();
                    }
                    nodes.add(Integer.parseInt(sw[0].strip()));
                    weights.add(sw.length == 2 ? Double.parseDouble(sw[1].strip()) : 1.0);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("job sizes '" + spec + "': give SIZE or SIZE:WEIGHT, comma-separated, "
                        + "e.g. 1,2,4,8,16 or 1:4,2:2,4:1");
            }
            return new Sizes(nodes, weights);
        }

        /** The mean size, E[size]. */
        public double mean() {
            double sum = 0;
            for (int i = 0; i < nodes.size(); i++) {
                sum += nodes.get(i) * weights.get(i);
            }
            return sum / totalWeight();
        }

        /** The largest size. */
        public int max() {
            return nodes.stream().mapToInt(Integer::intValue).max().orElseThrow();
        }

        private double totalWeight() {
            return weights.stream().mapToDouble(Double::doubleValue).sum();
        }

        int draw(Random random) {
            double u = random.nextDouble() * totalWeight();
            for (int i = 0; i < nodes.size() - 1; i++) {
                u -= weights.get(i);
                if (u < 0) {
                    return nodes.get(i);
                }
            }
            return nodes.get(nodes.size() - 1);
        }

        /** "sizes 1,2,4,8,16 equally likely", or "sizes:weights 1:4,2:2,4:1". */
        String describe() {
            StringBuilder b = new StringBuilder();
            boolean equal = weights.stream().distinct().count() == 1;
            for (int i = 0; i < nodes.size(); i++) {
                b.append(i == 0 ? "" : ",").append(nodes.get(i));
                if (!equal) {
                    b.append(':').append(format(weights.get(i)));
                }
            }
            return equal ? "sizes " + b + (nodes.size() > 1 ? " equally likely" : "") : "sizes:weights " + b;
        }
    }

    /**
     * How runtimes are drawn: {@code exponential:MEAN} or {@code lognormal:MEAN:SIGMA} (seconds;
     * a lognormal of that mean, {@code mu = ln(MEAN) − SIGMA²/2}).
     *
     * @param sigma 0 for exponential
     */
    public record Runtimes(double meanSeconds, double sigma) {
        public Runtimes {
            if (!(meanSeconds > 0) || !(sigma >= 0) || Double.isInfinite(meanSeconds) || Double.isInfinite(sigma)) {
                throw new IllegalArgumentException("runtimes: need a positive mean and a sigma of at least 0");
            }
        }

        public static Runtimes parse(String spec) {
            String[] p = spec.strip().toLowerCase(Locale.ROOT).split(":", -1);
            try {
                if (p[0].equals("exponential") && p.length == 2) {
                    return new Runtimes(Double.parseDouble(p[1]), 0);
                }
                if (p[0].equals("lognormal") && p.length == 3 && Double.parseDouble(p[2]) > 0) {
                    return new Runtimes(Double.parseDouble(p[1]), Double.parseDouble(p[2]));
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException("runtimes '" + spec + "': give exponential:MEAN or lognormal:MEAN:SIGMA "
                    + "(seconds; SIGMA above 0), e.g. exponential:900");
        }

        double draw(Random random) {
            if (sigma == 0) {
                return -Math.log(1 - random.nextDouble()) * meanSeconds;
            }
            return Math.exp(Math.log(meanSeconds) - sigma * sigma / 2 + sigma * random.nextGaussian());
        }

        public String spec() {
            return sigma == 0 ? "exponential:" + format(meanSeconds) : "lognormal:" + format(meanSeconds) + ":" + format(sigma);
        }

        String describe() {
            return (sigma == 0 ? "runtimes exponential" : "runtimes lognormal (sigma " + format(sigma) + ")") + ", mean "
                    + format(meanSeconds) + " s";
        }
    }

    static String format(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
