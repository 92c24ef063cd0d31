package koala.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.placement.PlacementPolicies;
import org.junit.jupiter.api.Test;

class PlacementReportTest {
    private static final PlacementFigures.Machine QUIET = new PlacementFigures.Machine(2, 0.4, 1.1);

    @Test
    void tablePrintsThroughputAt100SitesTimePerDecisionAndTheTarget() {
        String table = PlacementReport.table(figures(1_000_000));
        assertThat(table).contains("JMH, 1 fork, warmup 2 x 0.5 s, measurement 5 x 0.3 s (quick)");
        assertThat(table).containsPattern("At 100 sites +decisions/s +JMH mean ± 99.9% +placed");
        assertThat(table).containsPattern("  worst-fit +1,000,000 +990,000 ± 1,000 +86%");
        assertThat(table).containsPattern("Time per decision +10 sites +100 sites +1000 sites +1000 vs 10");
        // 10 sites: 4,000,000/s = 0.25 us; 100: 1 us; 1000: 10 us; growth 40x
        assertThat(table).containsPattern("  worst-fit +0.250 us +1.00 us +10.0 us +40.0x");
        assertThat(table).contains("Target: >= 20,000 Worst-Fit decisions/s on one core at 100 sites: "
                + "met (1,000,000/s, 50.0x the target)");
    }

    @Test
    void theTableComparesEachPolicyByResourcesWithItselfByNodes() {
        List<PlacementFigures.Score> scores = new ArrayList<>(figures(1_000_000).scores());
        scores.add(new PlacementFigures.Score("worst-fit", 100, 250_000, 240_000, 5_000, true));
        PlacementFigures figures = new PlacementFigures(BenchSettings.QUICK, scores, Map.of("worst-fit", 0.86),
                Map.of("worst-fit", 0.71), QUIET);
        String table = PlacementReport.table(figures);
        assertThat(table).containsPattern("By resources, 100 sites x 50 hosts +decisions/s +JMH mean ± 99.9% +placed +vs nodes");
        assertThat(table).containsPattern("  worst-fit +250,000 +240,000 ± 5,000 +71% +0.25x");
        // the growth over grid sizes is by nodes only: the resource score at 100 sites does not replace it
        assertThat(table).containsPattern("  worst-fit +0.250 us +1.00 us +10.0 us +40.0x");
        assertThat(table).contains("Target: >= 50,000 Worst-Fit decisions/s by resources on one core at 100 sites of 50 hosts: "
                + "met (250,000/s, 5.0x the target)");
        assertThat(PlacementReport.table(figures(1_000_000))).doesNotContain("By resources");
    }

    @Test
    void aMissedTargetSaysSo() {
        assertThat(PlacementReport.target(figures(10_000))).isEqualTo(
                "Target: >= 20,000 Worst-Fit decisions/s on one core at 100 sites: NOT met (10,000/s, 0.5x the target)");
        PlacementFigures none = new PlacementFigures(BenchSettings.QUICK, List.of(), Map.of(), QUIET);
        assertThat(PlacementReport.target(none)).endsWith("at 100 sites: not measured");
        assertThat(PlacementReport.table(none)).contains("  worst-fit").contains("not measured");
    }

    @Test
    void machineLoadIsReportedAndACrowdedRunIsFlagged() {
        assertThat(PlacementReport.table(figures(1_000_000)))
                .contains("Machine: 2 cores, load average 0.4 before the run, 1.1 after.");
        assertThat(PlacementReport.machine(new PlacementFigures.Machine(2, 1.0, 4.5))).isEqualTo(
                "Machine: 2 cores, load average 1.0 before the run, 4.5 after. Other processes wanted more than "
                        + "the cores: the figures are low and uneven; run again on a quiet machine.");
        assertThat(PlacementReport.machine(new PlacementFigures.Machine(2, -1, -1)))
                .isEqualTo("Machine: 2 cores, load average unknown.");
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(PlacementBench.median(new double[] {1, 2, 100})).isEqualTo(2);
        assertThat(PlacementBench.median(new double[] {1, 2, 4, 100})).isEqualTo(3);
    }

    @Test
    void microsecondsKeepAboutThreeDigits() {
        assertThat(PlacementReport.micros(0.4521)).isEqualTo("0.452 us");
        assertThat(PlacementReport.micros(5.104)).isEqualTo("5.10 us");
        assertThat(PlacementReport.micros(22.14)).isEqualTo("22.1 us");
        assertThat(PlacementReport.micros(1234.4)).isEqualTo("1,234 us");
    }

    /** Every policy: {@code at100} decisions/s (median) at 100 sites, 4x that at 10, a tenth at 1000. */
    private static PlacementFigures figures(double at100) {
        List<PlacementFigures.Score> scores = new ArrayList<>();
        for (String policy : PlacementPolicies.names()) {
            scores.add(new PlacementFigures.Score(policy, 10, at100 * 4, at100 * 4, 1_000));
            scores.add(new PlacementFigures.Score(policy, 100, at100, at100 * 0.99, 1_000));
            scores.add(new PlacementFigures.Score(policy, 1000, at100 / 10, at100 / 10, 1_000));
        }
        return new PlacementFigures(BenchSettings.QUICK, scores, Map.of("worst-fit", 0.86), QUIET);
    }
}
