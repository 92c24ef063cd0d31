package koala.fluent.client;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.FluentMessages.MetricsSample;

/**
 * An instance's metrics boiled down to the evaluation's figures. Allocated node-time is the sum
 * over samples of the workers held times the time to the next sample; utilization is busy
 * node-time (workers running an application) over allocated node-time, and CPU utilization the
 * allocated workers' mean CPU weighted by how many were held.
 */
public record MetricsSummary(int applications, int accepted, int queued, int rejected, int peakAllocated,
                             double allocatedNodeSeconds, double busyNodeSeconds, double cpuPercent) {

    public static MetricsSummary of(MetricsReport report) {
        List<MetricsSample> samples = report.samples();
        double allocated = 0;
        double cpuWeighted = 0;
        int peak = 0;
        for (int i = 0; i + 1 < samples.size(); i++) {
            MetricsSample s = samples.get(i);
            double seconds = Duration.between(s.at(), samples.get(i + 1).at()).toMillis() / 1000.0;
            allocated += s.allocated() * seconds;
            cpuWeighted += s.allocated() * seconds * s.cpuPercent();
        }
        for (MetricsSample s : samples) {
            peak = Math.max(peak, s.allocated());
        }
        double busy = report.workerSeconds().values().stream().mapToDouble(t -> t[0]).sum();
        MetricsSample last = samples.isEmpty() ? null : samples.get(samples.size() - 1);
        int accepted = last == null ? 0 : last.accepted();
        int queued = last == null ? 0 : last.queued();
        int rejected = last == null ? 0 : last.rejected();
        return new MetricsSummary(accepted + queued + rejected, accepted, queued, rejected, peak, allocated, busy,
                allocated == 0 ? 0 : cpuWeighted / allocated);
    }

    public double rejectPercent() {
        return applications == 0 ? 0 : 100.0 * rejected / applications;
    }

    /** Busy over allocated worker time, capped at 100% (the two are sampled at slightly different instants). */
    public double utilizationPercent() {
        return allocatedNodeSeconds == 0 ? 0 : Math.min(100, 100 * busyNodeSeconds / allocatedNodeSeconds);
    }

    public List<String> lines() {
        return List.of(
                String.format(Locale.ROOT, "applications %d: %d accepted at once, %d queued, %d rejected (%.0f%%)",
                        applications, accepted, queued, rejected, rejectPercent()),
                String.format(Locale.ROOT, "workers: peak %d; %.0f node-seconds allocated, %.0f busy: utilization %.0f%%"
                        + " (idle %.0f%%)", peakAllocated, allocatedNodeSeconds, busyNodeSeconds,
                        utilizationPercent(), 100 - utilizationPercent()),
                String.format(Locale.ROOT, "CPU utilization of the allocated workers: %.0f%%", cpuPercent));
    }
}
