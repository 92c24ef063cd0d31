package koala.scheduler.metrics;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * What a standby scheduler's {@code GET /metrics} shows: that it does not lead, and the epoch of the
 * leader it last saw. It keeps no counts (the leader does), so that a site's Prometheus scraping
 * every scheduler of the grid sums the leader's counts alone and sees a take-over as
 * {@code koala_scheduler_leading} passing from one target to another.
 */
public final class StandbyMetrics {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Gauge epoch;

    public StandbyMetrics() {
        SchedulerMetrics.leadership(registry).set(0);
        epoch = SchedulerMetrics.epoch(registry);
    }

    /** The leader seen now leads at {@code epoch} (0: none yet). */
    public void leaderAt(long epoch) {
        this.epoch.set(epoch);
    }

    public SchedulerMetrics.Scrape scrape(String accept) {
        return SchedulerMetrics.scrape(registry, accept);
    }
}
