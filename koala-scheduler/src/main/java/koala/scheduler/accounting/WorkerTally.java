package koala.scheduler.accounting;

/**
 * What an instance's workers did, summed from its runner's reports so far.
 *
 * @param busySeconds     worker node-seconds the runner reported the worker busy
 * @param cpuSeconds      CPU seconds of its workers, from the utilization each report gave; null once a report
 *                        named a worker on a site whose cores are unknown
 * @param reportedSeconds worker node-seconds the reports covered, busy or idle
 */
public record WorkerTally(double busySeconds, Double cpuSeconds, double reportedSeconds) {
    public static final WorkerTally ZERO = new WorkerTally(0, 0.0, 0);

    WorkerTally plus(double busy, Double cpu, double reported) {
        return new WorkerTally(busySeconds + busy, cpuSeconds == null || cpu == null ? null : cpuSeconds + cpu,
                reportedSeconds + reported);
    }
}
