package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;
import koala.fluent.Application;
import koala.fluent.FluentJob;

/**
 * The bound no online policy can pass: allocation that follows use exactly, with no grow delay.
 * Each application gets a worker the instant it arrives if fewer than F_max are busy, and the
 * worker is given back the instant it ends; nothing is ever idle or starting. So the busy-based
 * utilization is 100%, the CPU-based one the applications' mean load, and the reject rate that
 * of a loss system with F_max servers — which, RLs all being equally long, no policy holding at
 * most F_max workers can beat: accepting whenever a worker is free is optimal for equal lengths.
 * SWCs are not bounded here (they queue rather than being rejected).
 */
public final class Clairvoyant {
    private Clairvoyant() {
    }

    public static RunMetrics bound(Workload workload, int fMax) {
        PriorityQueue<Instant> ends = new PriorityQueue<>();
        long apps = 0;
        long rejected = 0;
        double cpu = 0;
        long busyMillis = 0;
        Instant end = workload.end();
        for (FluentJob job : workload.jobs()) {
            Instant now = job.submittedAt();
            if (!now.isBefore(end)) {
                break;
            }
            while (!ends.isEmpty() && !ends.peek().isAfter(now)) {
                ends.poll();
            }
            for (Application app : job.apps()) {
                apps++;
                if (ends.size() >= fMax) {
                    rejected++;
                    continue;
                }
                Instant done = now.plus(app.duration());
                ends.add(done);
                busyMillis += Duration.between(now, done.isAfter(end) ? end : done).toMillis();
                cpu += workload.cpuSeconds(app, now, end);
            }
        }
        double alloc = Math.max(1, busyMillis);
        return new RunMetrics("clairvoyant", apps, rejected, apps == 0 ? 0 : 100.0 * rejected / apps,
                cpu * 1000 / alloc, busyMillis == 0 ? 0 : 100, 0, 0, 0, 0, busyMillis / 3.6e6, 0, java.util.List.of());
    }
}
