package koala.sim.experiment;

import java.util.List;
import koala.sim.RunMetrics;

/** One policy's figures over the seeds of an experiment. */
public record Summary(String policy, int seeds, Stat reject, Stat cpu, Stat busy, Stat idle, Stat growOverheadHours,
        Stat grows, Stat waitSeconds) {

    public static Summary of(String policy, List<RunMetrics> runs) {
        return new Summary(policy, runs.size(), Stat.of(runs, RunMetrics::rejectPercent),
                Stat.of(runs, RunMetrics::cpuUtilization), Stat.of(runs, RunMetrics::busyUtilization),
                Stat.of(runs, RunMetrics::idleFraction), Stat.of(runs, RunMetrics::growOverheadHours),
                Stat.of(runs, RunMetrics::grows), Stat.of(runs, RunMetrics::meanWaitSeconds));
    }

    /** The CSV header matching {@link #csv()}. */
    public static final String CSV_HEADER = "policy,seeds,reject_pct,reject_sd,cpu_util_pct,cpu_util_sd,busy_util_pct,"
            + "busy_util_sd,idle_pct,idle_sd,grow_overhead_node_hours,grow_overhead_sd,grows,grows_sd,wait_s,wait_sd";

    public String csv() {
        StringBuilder b = new StringBuilder(policy).append(',').append(seeds);
        for (Stat s : List.of(reject, cpu, busy, idle, growOverheadHours, grows, waitSeconds)) {
            b.append(',').append(String.format(java.util.Locale.ROOT, "%.3f,%.3f", s.mean(), s.sd()));
        }
        return b.toString();
    }
}
