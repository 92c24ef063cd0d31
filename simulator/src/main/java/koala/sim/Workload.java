package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import koala.fluent.Application;
import koala.fluent.FluentJob;

/**
 * What clients submit to one framework instance: jobs (batches of applications) in arrival order,
 * and for each RL the CPU level of each of its load periods (cycled if the run outlasts them).
 * Times are offsets from {@link #START}; the run lasts {@code length}.
 */
public record Workload(String name, List<FluentJob> jobs, Map<String, double[]> cpuLevels, Duration length) {
    /** Virtual time zero: every workload starts here (the reasons print times of day from it). */
    public static final Instant START = Instant.parse("2014-05-01T00:00:00Z");

    public Workload {
        Objects.requireNonNull(name, "name");
        jobs = List.copyOf(jobs);
        cpuLevels = Map.copyOf(new HashMap<>(cpuLevels));
        for (int i = 1; i < jobs.size(); i++) {
            if (jobs.get(i).submittedAt().isBefore(jobs.get(i - 1).submittedAt())) {
                throw new IllegalArgumentException(name + ": job " + jobs.get(i).id() + " arrives before "
                        + jobs.get(i - 1).id() + "; jobs must be in arrival order");
            }
        }
        for (FluentJob job : jobs) {
            for (Application app : job.apps()) {
                if (app.isRl() && (!cpuLevels.containsKey(app.id()) || cpuLevels.get(app.id()).length == 0)) {
                    throw new IllegalArgumentException(name + ": RL " + app.id() + " has no CPU levels");
                }
            }
        }
    }

    public Instant end() {
        return START.plus(length);
    }

    /** Applications of the jobs that arrive before the end. */
    public long applications() {
        return jobs.stream().filter(j -> j.submittedAt().isBefore(end())).mapToLong(j -> j.apps().size()).sum();
    }

    /**
     * CPU of one component of {@code app} started at {@code start}, at {@code t}, percent of its
     * worker (RL) or slot (SWC).
     */
    public double cpuAt(Application app, Instant start, Instant t) {
        if (!app.isRl()) {
            return app.cpuPercent();
        }
        double[] levels = cpuLevels.get(app.id());
        long period = app.loadPeriod().toMillis();
        long k = Math.max(0, Duration.between(start, t).toMillis()) / period;
        return levels[(int) (k % levels.length)];
    }

    /** CPU time of one component of {@code app} from {@code start} to {@code until}, in percent·seconds. */
    public double cpuSeconds(Application app, Instant start, Instant until) {
        long span = Math.min(Duration.between(start, until).toMillis(), app.duration().toMillis());
        if (span <= 0) {
            return 0;
        }
        if (!app.isRl()) {
            return app.cpuPercent() * span / 1000.0;
        }
        double[] levels = cpuLevels.get(app.id());
        long period = app.loadPeriod().toMillis();
        double sum = 0;
        for (long k = 0; k * period < span; k++) {
            long len = Math.min(period, span - k * period);
            sum += levels[(int) (k % levels.length)] * len / 1000.0;
        }
        return sum;
    }
}
