package koala.fluent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.FluentMessages.MetricsSample;
import org.junit.jupiter.api.Test;

class MetricsSummaryTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void nodeTimeIsWorkersHeldTimesTheTimeToTheNextSample() {
        MetricsReport report = new MetricsReport(List.of(
                new MetricsSample(T, 2, 2, 60, 2, 0, 0, 0, 0, 2),
                new MetricsSample(T.plusSeconds(10), 4, 2, 30, 4, 1, 1, 0, 1, 2),
                new MetricsSample(T.plusSeconds(20), 0, 0, 0, 4, 1, 1, 5, 0, 0)),
                Map.of("w1", new double[] {20, 0}, "w2", new double[] {10, 10}, "w3", new double[] {0, 10}));
        MetricsSummary summary = MetricsSummary.of(report);
        assertThat(summary.allocatedNodeSeconds()).isEqualTo(60);
        assertThat(summary.busyNodeSeconds()).isEqualTo(30);
        assertThat(summary.utilizationPercent()).isEqualTo(50);
        assertThat(summary.cpuPercent()).isCloseTo((2 * 10 * 60 + 4 * 10 * 30) / 60.0, within(1e-9));
        assertThat(summary.peakAllocated()).isEqualTo(4);
        assertThat(summary.rejectPercent()).isCloseTo(100 / 6.0, within(1e-9));
        assertThat(summary.lines().get(0)).isEqualTo("applications 6: 4 accepted at once, 1 queued, 1 rejected (17%)");
    }
}
