package koala.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GrowOverheadTest {
    private final GrowOverhead overhead = new GrowOverhead();

    @Test
    void beforeAnyGrowTheEstimateIsThePapers30Seconds() {
        assertThat(overhead.estimate("fs0")).isEqualTo(Duration.ofSeconds(30));
        assertThat(overhead.estimate()).isEqualTo(Duration.ofSeconds(30));
        assertThat(overhead.samples("fs0")).isZero();
    }

    @Test
    void theEstimateIsTheMedianOfTheLastFiveGrows() {
        record("fs0", 40, 20, 90);
        assertThat(overhead.estimate("fs0")).isEqualTo(seconds(40)); // 20 40 90
        record("fs0", 25);
        assertThat(overhead.estimate("fs0")).isEqualTo(seconds(32.5)); // 20 25 | 40 90 -> (25 + 40) / 2
        record("fs0", 30, 35);
        // the first (40) has left the window: 20 90 25 30 35 -> 20 25 30 35 90
        assertThat(overhead.estimate("fs0")).isEqualTo(seconds(30));
        assertThat(overhead.samples("fs0")).isEqualTo(5);
    }

    @Test
    void oneSlowGrowDoesNotMoveTheMedian() {
        record("fs1", 28, 31, 600);
        assertThat(overhead.estimate("fs1")).isEqualTo(seconds(31));
    }

    @Test
    void eachSiteHasItsOwnEstimateAndTheGridOneSpansThemAll() {
        record("fs0", 20, 22);
        record("fs1", 60);
        assertThat(overhead.estimate("fs0")).isEqualTo(seconds(21));
        assertThat(overhead.estimate("fs1")).isEqualTo(seconds(60));
        assertThat(overhead.estimate("fs2")).isEqualTo(seconds(30));
        assertThat(overhead.estimate()).isEqualTo(seconds(22));
    }

    @Test
    void aGrowIsMeasuredFromTheRequestToTheWorkerReportingIn() {
        Instant requested = Instant.parse("2024-05-01T10:00:00Z");
        overhead.record("fs0", requested, requested.plusSeconds(42));
        assertThat(overhead.estimate("fs0")).isEqualTo(seconds(42));
        assertThatThrownBy(() -> overhead.record("fs0", requested, requested.minusSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tIdleIsNTimesTheEstimate() {
        record("fs0", 25, 35, 40); // O_grow = 35 s
        Duration oGrow = overhead.estimate("fs0");
        assertThat(ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 2).idleTime(oGrow)).isEqualTo(seconds(210));
        assertThat(ProvisioningSettings.defaults(PolicyKind.PROACTIVE, 2).idleTime(oGrow)).isEqualTo(seconds(70));
    }

    @Test
    void theWindowAndTheFirstEstimateCanBeChosen() {
        GrowOverhead lastThree = new GrowOverhead(3, Duration.ofSeconds(45));
        assertThat(lastThree.estimate("fs0")).isEqualTo(seconds(45));
        lastThree.record("fs0", seconds(10));
        lastThree.record("fs0", seconds(50));
        lastThree.record("fs0", seconds(60));
        lastThree.record("fs0", seconds(70));
        assertThat(lastThree.estimate("fs0")).isEqualTo(seconds(60)); // 50 60 70
        assertThatThrownBy(() -> new GrowOverhead(0, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    private void record(String site, double... growSeconds) {
        for (double s : growSeconds) {
            overhead.record(site, seconds(s));
        }
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis(Math.round(s * 1000));
    }
}
