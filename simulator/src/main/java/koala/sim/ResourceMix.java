package koala.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import koala.placement.Resources;

/**
 * A seeded mix of jobs that ask for resources ({@link ResourceJob}): each job's class drawn by weight,
 * its number of components and of nodes per component uniform on the class's ranges, runtimes
 * exponential, arrivals Poisson. As in {@link ParallelWorkload}, arrivals, classes and runtimes draw
 * from streams of their own and arrivals are gaps of mean 1 scaled by the rate, so one seed at two
 * loads gives the very same jobs, only closer together.
 *
 * @param classes            the job classes and their weights
 * @param meanRuntimeSeconds the runtimes' mean
 */
public record ResourceMix(List<JobClass> classes, double meanRuntimeSeconds) {

    /**
     * A class of jobs: {@code minComponents..maxComponents} components (more than one: co-allocated) of
     * {@code minNodes..maxNodes} nodes each, every node asking for {@code perNode}.
     */
    public record JobClass(String name, double weight, int minComponents, int maxComponents, int minNodes, int maxNodes,
            Resources perNode) {
        public JobClass {
            if (!(weight > 0) || minComponents < 1 || maxComponents < minComponents || minNodes < 1 || maxNodes < minNodes
                    || perNode.cores() < 1) {
                throw new IllegalArgumentException("job class " + name + ": a positive weight, at least 1 component and "
                        + "1 node (min <= max), nodes of at least 1 core");
            }
        }

        /** Adds to {@code out} (cores, MiB, GPUs) what one job of the class asks for on average, times {@code factor}. */
        void addMean(double factor, double[] out) {
            double nodes = (minComponents + maxComponents) / 2.0 * (minNodes + maxNodes) / 2.0 * factor;
            out[0] += nodes * perNode.cores();
            out[1] += nodes * perNode.memoryMiB();
            out[2] += nodes * perNode.gpus();
        }
    }

    /**
     * The default mix, per job: 45% small (1-8 nodes of 1 core and 2G: scripts, parameter sweeps),
     * 20% memory-heavy (1-4 nodes of 2 cores and 12G, more than the 8G of the small hosts), 15% GPU
     * (1-2 nodes of 4 cores, 16G and 1 GPU), 20% co-allocated MPI (2-3 components of 2-4 nodes of 2 cores
     * and 4G); runtimes exponential, mean 1 hour.
     */
    public static final ResourceMix DEFAULT = new ResourceMix(List.of(
            new JobClass("small", 45, 1, 1, 1, 8, gib(1, 2, 0)),
            new JobClass("memory", 20, 1, 1, 1, 4, gib(2, 12, 0)),
            new JobClass("gpu", 15, 1, 1, 1, 2, gib(4, 16, 1)),
            new JobClass("mpi", 20, 2, 3, 2, 4, gib(2, 4, 0))), 3600);

    public ResourceMix {
        classes = List.copyOf(classes);
        if (classes.isEmpty() || !(meanRuntimeSeconds > 0) || Double.isInfinite(meanRuntimeSeconds)) {
            throw new IllegalArgumentException("a mix needs at least one class and a positive mean runtime");
        }
    }

    /** Cores, memory (MiB) and GPUs one job asks for on average, times its mean runtime: resource-seconds. */
    public double[] meanDemandSeconds() {
        double total = classes.stream().mapToDouble(JobClass::weight).sum();
        double[] out = new double[3];
        for (JobClass c : classes) {
            c.addMean(c.weight() / total * meanRuntimeSeconds, out);
        }
        return out;
    }

    /**
     * Arrivals per second that offer {@code load} of the grid's {@code total} in the resource the mix
     * asks most of, relative to what the grid has: {@code load / max_d(E[demand_d] / total_d)}. A
     * dimension the grid does not have at all is left out.
     */
    public double arrivalRate(double load, Resources total) {
        if (!(load > 0)) {
            throw new IllegalArgumentException("a load is above 0, got " + load);
        }
        double[] demand = meanDemandSeconds();
        double[] has = {total.cores(), total.memoryMiB(), total.gpus()};
        double busiest = 0;
        for (int d = 0; d < 3; d++) {
            if (has[d] > 0) {
                busiest = Math.max(busiest, demand[d] / has[d]);
            }
        }
        return load / busiest;
    }

    /** What each resource of {@code total} is offered at {@code rate}: cores, memory, GPUs, as fractions. */
    public double[] offered(double rate, Resources total) {
        double[] demand = meanDemandSeconds();
        double[] has = {total.cores(), total.memoryMiB(), total.gpus()};
        double[] out = new double[3];
        for (int d = 0; d < 3; d++) {
            out[d] = has[d] == 0 ? 0 : rate * demand[d] / has[d];
        }
        return out;
    }

    /**
     * {@code jobs} jobs numbered from 1 in arrival order, arriving at {@code rate} per second; a rate of
     * 0 submits them all at once (a backlog: what the grid then finishes per hour is its capacity).
     */
    public List<ResourceJob> generate(int jobs, double rate, long seed) {
        if (jobs < 0 || rate < 0 || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("need a number of jobs and a rate of at least 0, got " + jobs + ", " + rate);
        }
        Random arrivals = new Random(seed);
        Random shape = new Random(seed * 0x9E3779B97F4A7C15L + 1);
        Random length = new Random(seed * 0x9E3779B97F4A7C15L + 2);
        double total = classes.stream().mapToDouble(JobClass::weight).sum();
        List<ResourceJob> out = new ArrayList<>(jobs);
        double gaps = 0;
        for (int i = 1; i <= jobs; i++) {
            gaps += -Math.log(1 - arrivals.nextDouble());
            JobClass c = draw(shape.nextDouble() * total);
            int components = c.minComponents() + shape.nextInt(c.maxComponents() - c.minComponents() + 1);
            List<ResourceJob.Part> parts = new ArrayList<>(components);
            for (int k = 0; k < components; k++) {
                parts.add(new ResourceJob.Part(c.minNodes() + shape.nextInt(c.maxNodes() - c.minNodes() + 1), c.perNode()));
            }
            // whole seconds, at least one
            double runtime = Math.max(1, Math.round(-Math.log(1 - length.nextDouble()) * meanRuntimeSeconds));
            out.add(ResourceJob.of(i, rate == 0 ? 0 : gaps / rate, runtime, c.name(), parts));
        }
        return out;
    }

    private JobClass draw(double u) {
        for (int i = 0; i < classes.size() - 1; i++) {
            u -= classes.get(i).weight();
            if (u < 0) {
                return classes.get(i);
            }
        }
        return classes.get(classes.size() - 1);
    }

    /** "45% small (1-8 nodes of 1 core and 2G), ...; runtimes exponential, mean 3600 s". */
    public String describe() {
        double total = classes.stream().mapToDouble(JobClass::weight).sum();
        StringBuilder b = new StringBuilder();
        for (JobClass c : classes) {
            b.append(b.length() == 0 ? "" : ", ").append(ParallelWorkload.format(Math.round(100 * c.weight() / total)))
                    .append("% ").append(c.name()).append(" (");
            if (c.maxComponents() > 1) {
                b.append(range(c.minComponents(), c.maxComponents())).append(" components of ");
            }
            b.append(range(c.minNodes(), c.maxNodes())).append(c.maxNodes() == 1 ? " node" : " nodes").append(" of ")
                    .append(c.perNode().describe()).append(')');
        }
        return b + "; runtimes exponential, mean " + ParallelWorkload.format(meanRuntimeSeconds) + " s";
    }

    private static String range(int min, int max) {
        return min == max ? String.valueOf(min) : min + "-" + max;
    }

    static Resources gib(int cores, int memoryGiB, int gpus) {
        return new Resources(cores, memoryGiB * 1024L, gpus);
    }
}
