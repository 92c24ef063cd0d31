package koala.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import koala.sim.RunMetrics;
import org.junit.jupiter.api.Test;

class PairedTest {

    private static RunMetrics rejecting(double percent) {
        return new RunMetrics("p", 100, (long) percent, percent, 50, 70, 25, 5, 1, 10, 100, 0, List.of());
    }

    @Test
    void differencesAreTakenSeedBySeed() {
        // seeds 1..3: 14 vs 13, 12 vs 12.5, 15 vs 14 → differences +1, −0.5, +1
        List<RunMetrics> a = List.of(rejecting(14), rejecting(12), rejecting(15));
        List<RunMetrics> b = List.of(rejecting(13), rejecting(12.5), rejecting(14));
        Paired p = Paired.of(a, b, RunMetrics::rejectPercent);
        assertThat(p.difference().mean()).isCloseTo(0.5, within(1e-9));
        assertThat(p.difference().sd()).isCloseTo(Math.sqrt(0.75), within(1e-9));
        assertThat(p.higher()).isEqualTo(2);
        assertThat(p.text()).isEqualTo("+0.50 ± 0.87 (higher at 2 of 3 seeds)");
    }

    @Test
    void runsOfDifferentSeedCountsAreNotPaired() {
        assertThatThrownBy(() -> Paired.of(List.of(rejecting(1)), List.of(), RunMetrics::rejectPercent))
                .hasMessageContaining("as many seeds: 1 and 0");
    }
}
