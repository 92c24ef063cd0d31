package koala.experiments;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.MetricsSample;
import koala.sim.RunMetrics;

/**
 * One policy's run on the testbed turned into the simulator's figures ({@link RunMetrics}), all
 * over the same window as the simulated run: from the moment the first job could arrive to the
 * end of the run.
 *
 * <ul>
 *   <li>reject rate: the master's rejected RLs over the applications submitted;</li>
 *   <li>node-busy and idle: the master's busy and idle seconds of its workers over the window
 *       (the difference of its per-worker counters at the window's ends), over the worker
 *       node-time the runner held (its log: grow request to release);</li>
 *   <li>CPU: what each finished RL reports it loaded its worker with (mean load × seconds run),
 *       over the same node-time — not the launchers' measurement, which adds each worker JVM's
 *       own overhead;</li>
 *   <li>grow overhead: per worker grown, grow request to the worker joining the master;</li>
 *   <li>wait: how long each job's submission took (under OnDemand, the grow it waits for), per application.</li>
 * </ul>
 *
 * @param busyIdleSeconds    busy and idle worker-seconds in the window, from the master
 * @param cpuPercentSeconds  RL load, percent of a worker × seconds
 * @param waitSeconds        submission time × applications, summed
 */
record TestbedFigures(String policy, long applications, long rejected, double[] busyIdleSeconds,
                      double cpuPercentSeconds, double allocatedSeconds, double growOverheadSeconds, long grows,
                      double waitSeconds, List<RunMetrics.Point> series) {

    RunMetrics metrics() {
        double alloc = Math.max(1e-9, allocatedSeconds);
        return new RunMetrics(policy, applications, rejected, applications == 0 ? 0 : 100.0 * rejected / applications,
                cpuPercentSeconds / alloc, 100 * busyIdleSeconds[0] / alloc, 100 * busyIdleSeconds[1] / alloc,
                100 * growOverheadSeconds / alloc, growOverheadSeconds / 3600, grows, allocatedSeconds / 3600,
                applications == 0 ? 0 : waitSeconds / applications, series);
    }

    /** Busy and idle seconds summed over the workers, between two of the master's reports of them. */
    static double[] busyIdleBetween(Map<String, double[]> before, Map<String, double[]> after) {
        double busy = 0;
        double idle = 0;
        for (Map.Entry<String, double[]> w : after.entrySet()) {
            double[] was = before.getOrDefault(w.getKey(), new double[] {0, 0});
            busy += w.getValue()[0] - was[0];
            idle += w.getValue()[1] - was[1];
        }
        return new double[] {busy, idle};
    }

    /** Percent·seconds of CPU the finished RLs report: their mean load times how long they ran. */
    static double cpuPercentSeconds(List<AppReply> apps) {
        double sum = 0;
        for (AppReply a : apps) {
            if (a.state().equals("FINISHED") && a.result().get("meanLoadPercent") instanceof Number load
                    && a.result().get("seconds") instanceof Number seconds) {
                sum += load.doubleValue() * seconds.doubleValue();
            }
        }
        return sum;
    }

    /** The master's samples within [from, to] as the simulator's series: seconds since {@code from}. */
    static List<RunMetrics.Point> series(List<MetricsSample> samples, Instant from, Instant to) {
        return samples.stream().filter(s -> !s.at().isBefore(from) && !s.at().isAfter(to))
                .map(s -> new RunMetrics.Point(Duration.between(from, s.at()).toMillis() / 1000.0, s.allocated(),
                        s.busy(), s.cpuPercent() * s.allocated() / 100)).toList();
    }
}
