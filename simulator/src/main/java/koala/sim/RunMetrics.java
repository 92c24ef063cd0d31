package koala.sim;

import java.util.List;

/**
 * What one run of one policy on one workload gave. Node-time is worker node-time: from the grow
 * (or the start, for initial workers) to the release, starting time included, since KOALA holds
 * the node from the grant on; the master and orchestrator nodes are not counted.
 *
 * @param applications       applications that arrived (and were submitted) during the run
 * @param rejected           RLs rejected for want of an idle worker
 * @param rejectPercent      rejected / applications, percent
 * @param cpuUtilization     CPU used by applications / worker node-time allocated, percent (the paper's utilization)
 * @param busyUtilization    node-time a worker ran something / node-time allocated, percent
 * @param idleFraction       node-time a running worker was idle / node-time allocated, percent
 * @param growOverheadFraction node-time workers spent starting / node-time allocated, percent
 * @param growOverheadHours  node-time workers spent starting (granted, not yet reported in), node-hours
 * @param grows              grows carried out (a grow of k workers counts once)
 * @param allocatedHours     worker node-time allocated, node-hours
 * @param meanWaitSeconds    mean time from a job's arrival to its submission to the master (the wait for its grow)
 * @param series             allocated and used workers every sample period
 */
public record RunMetrics(String policy, long applications, long rejected, double rejectPercent,
        double cpuUtilization, double busyUtilization, double idleFraction, double growOverheadFraction,
        double growOverheadHours, long grows, double allocatedHours, double meanWaitSeconds, List<Point> series) {

    /**
     * @param seconds   since the start of the run
     * @param allocated workers held (running and starting)
     * @param busy      workers running an application
     * @param cpuUsed   CPU in use, in nodes (sum of the workers' CPU / 100)
     */
    public record Point(double seconds, int allocated, int busy, double cpuUsed) {
    }

    public RunMetrics {
        series = List.copyOf(series);
    }

    public RunMetrics withoutSeries() {
        return new RunMetrics(policy, applications, rejected, rejectPercent, cpuUtilization, busyUtilization,
                idleFraction, growOverheadFraction, growOverheadHours, grows, allocatedHours, meanWaitSeconds, List.of());
    }
}
