package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import koala.fluent.Metrics;
import koala.fluent.WorkerTime;

/** The counters of one instance's run that the master does not keep: node-time held and starting, CPU used, waits. */
final class Accounting {
    private long allocatedMillis;
    private long startingMillis;
    private double cpuPercentSeconds;
    private long grows;
    private long waitMillis;
    private long waited;
    private final List<RunMetrics.Point> series = new ArrayList<>();

    void grew() {
        grows++;
    }

    void joined(Duration took) {
        startingMillis += took.toMillis();
    }

    void released(Instant requestedAt, Instant now) {
        allocatedMillis += Duration.between(requestedAt, now).toMillis();
    }

    /** CPU time an application used, in percent of a node × seconds. */
    void used(double percentSeconds) {
        cpuPercentSeconds += percentSeconds;
    }

    void submitted(Instant arrived, Instant now, int apps) {
        waitMillis += Duration.between(arrived, now).toMillis() * apps;
        waited += apps;
    }

    void point(Instant start, Instant now, int allocated, int busy, double cpuUsed) {
        series.add(new RunMetrics.Point(Duration.between(start, now).toMillis() / 1000.0, allocated, busy, cpuUsed));
    }

    RunMetrics metrics(String policy, long applications, Metrics master) {
        long busy = 0;
        long idle = 0;
        for (WorkerTime t : master.workerTime().values()) {
            busy += t.busy().toMillis();
            idle += t.idle().toMillis();
        }
        double alloc = Math.max(1, allocatedMillis);
        return new RunMetrics(policy, applications, master.rejected(), percent(master.rejected(), applications),
                cpuPercentSeconds * 1000 / alloc, 100.0 * busy / alloc, 100.0 * idle / alloc,
                100.0 * startingMillis / alloc, startingMillis / 3.6e6, grows, allocatedMillis / 3.6e6,
                waited == 0 ? 0 : waitMillis / 1000.0 / waited, series);
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }
}
