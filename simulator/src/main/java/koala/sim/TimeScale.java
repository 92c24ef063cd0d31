package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import koala.fluent.Application;
import koala.fluent.FluentJob;

/**
 * A workload compressed in time, for the real testbed: arrival offsets, application durations,
 * load periods and the run's length divided by {@code factor}; batch sizes and CPU levels kept.
 * With factor 10 the paper's {@code W_rl} (RLs of 300 s, a batch every 36 s) becomes RLs of 30 s
 * and a batch every 3.6 s: the same offered load in workers, ten times as fast. Times are rounded
 * to the millisecond.
 */
public record TimeScale(double factor) {
    public TimeScale {
        if (!(factor >= 1) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("time compression " + factor + ": need a finite factor >= 1");
        }
    }

    public Duration compress(Duration d) {
        return Duration.ofMillis(Math.round(d.toMillis() / factor));
    }

    public Workload compress(Workload w) {
        List<FluentJob> jobs = new ArrayList<>(w.jobs().size());
        for (FluentJob job : w.jobs()) {
            List<Application> apps = job.apps().stream().map(this::compress).toList();
            Instant at = Workload.START.plus(compress(Duration.between(Workload.START, job.submittedAt())));
            jobs.add(new FluentJob(job.id(), apps, at));
        }
        return new Workload(w.name() + " / " + fmt(factor), jobs, w.cpuLevels(), compress(w.length()));
    }

    private Application compress(Application a) {
        return new Application(a.id(), a.kind(), a.components(), compress(a.duration()), a.cpuPercent(),
                a.loadPeriod().isZero() ? Duration.ZERO : compress(a.loadPeriod()));
    }

    /**
     * The same jobs over a longer run: no job arrives in the extra time, which lets what arrived
     * near the end finish (a run of the testbed ends when its last applications have).
     */
    public static Workload extended(Workload w, Duration extra) {
        return new Workload(w.name(), w.jobs(), w.cpuLevels(), w.length().plus(extra));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
