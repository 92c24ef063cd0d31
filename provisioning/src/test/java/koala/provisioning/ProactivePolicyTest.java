package koala.provisioning;

import static koala.provisioning.Fixtures.at;
import static koala.provisioning.Fixtures.busy;
import static koala.provisioning.Fixtures.layer;
import static org.assertj.core.api.Assertions.assertThat;
import koala.provisioning.WorkerDecision.Kind;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proactive with the paper's defaults: 2 initial workers, F_max 20, U_min/U_max 40%/50%,
 * t_idle = 2 · O_grow = 2 × 30 s = 60 s; T0 is 10:00:00.
 */
class ProactivePolicyTest {
    private final WorkerPolicy proactive = WorkerPolicy.of(ProvisioningSettings.defaults(PolicyKind.PROACTIVE, 2));

    /** w1, w2 busy at {@code busyCpu}; w3 idle since 10:00:00, w4 since 10:00:10, at {@code idleCpu}. */
    private static WorkerLayer four(double busyCpu, double idleCpu) {
        return WorkerLayer.of(Worker.busy("w1", busyCpu), Worker.busy("w2", busyCpu),
                Worker.idle("w3", at(0), idleCpu), Worker.idle("w4", at(10), idleCpu));
    }

    @Test
    void between49And51PercentTheHysteresisBandDecides() {
        assertThat(proactive.onSample(four(60, 38), at(70)))
                .isEqualTo(new WorkerDecision.Keep(Kind.WITHIN_BAND, "keep: mean CPU 49% within 40%–50%"));
        assertThat(proactive.onSample(four(62, 40), at(70)))
                .isEqualTo(new WorkerDecision.Grow(Kind.ABOVE_U_MAX, 2, "grow 2: mean CPU 51% > U_max 50%, adding the initial 2 workers"));
        assertThat(proactive.onSample(four(70, 8), at(70))).isEqualTo(new WorkerDecision.Release(Kind.BELOW_U_MIN, List.of("w3", "w4"),
                "release w3, w4: mean CPU 39% < U_min 40%; w3 idle since 10:00:00, 70 s; w4 idle since 10:00:10, 60 s; "
                        + "each >= t_idle 60 s (2 × O_grow 30 s)"));
    }

    @Test
    void exactlyUMaxAndExactlyUMinAreInsideTheBand() {
        assertThat(proactive.onSample(four(60, 40), at(70)))
                .isEqualTo(new WorkerDecision.Keep(Kind.WITHIN_BAND, "keep: mean CPU 50% within 40%–50%"));
        assertThat(proactive.onSample(four(70, 10), at(70)))
                .isEqualTo(new WorkerDecision.Keep(Kind.WITHIN_BAND, "keep: mean CPU 40% within 40%–50%"));
    }

    @Test
    void aGrowIsCappedByFMax() {
        assertThat(proactive.onSample(layer(busy(19, 80)), at(0))).isEqualTo(new WorkerDecision.Grow(Kind.AT_FMAX, 1,
                "grow 1 of the initial 2: mean CPU 80% > U_max 50%; F_max 20 leaves room for 1"));
        assertThat(proactive.onSample(layer(busy(20, 80)), at(0))).isEqualTo(
                new WorkerDecision.Keep(Kind.AT_FMAX, "keep: mean CPU 80% > U_max 50%, but F_max 20 reached (20 workers)"));
    }

    @Test
    void aGrowIsCappedByTheGridsFreeNodes() {
        assertThat(proactive.onSample(layer(busy(4, 80)).withGridFreeNodes(1), at(0))).isEqualTo(
                new WorkerDecision.Grow(Kind.GRID_FULL, 1, "grow 1 of the initial 2: mean CPU 80% > U_max 50%; the grid has 1 free node"));
        assertThat(proactive.onSample(layer(busy(4, 80)).withGridFreeNodes(0), at(0))).isEqualTo(
                new WorkerDecision.Keep(Kind.GRID_FULL, "keep: mean CPU 80% > U_max 50%, but the grid has no free nodes"));
    }

    @Test
    void noSecondGrowWhileTheFirstIsStillStarting() {
        assertThat(proactive.onSample(layer(busy(2, 80)).withStarting(2), at(0)))
                .isEqualTo(new WorkerDecision.Keep(Kind.STILL_STARTING, "keep: mean CPU 80% > U_max 50%, but 2 workers still starting"));
    }

    @Test
    void aReleaseNeverGoesBelowTheInitialWorkersAndTakesTheLongestIdleFirstTiesById() {
        WorkerLayer three = WorkerLayer.of(Worker.idle("w1", at(10), 5), Worker.idle("w3", at(0), 5),
                Worker.idle("w2", at(0), 5));
        assertThat(proactive.onSample(three, at(100))).isEqualTo(new WorkerDecision.Release(Kind.BELOW_U_MIN, List.of("w2"),
                "release w2: mean CPU 5% < U_min 40%; idle since 10:00:00, 100 s >= t_idle 60 s (2 × O_grow 30 s); "
                        + "w3, w1 kept: never below the initial 2 workers"));
        WorkerLayer two = WorkerLayer.of(Worker.idle("w1", at(0), 5), Worker.idle("w2", at(0), 5));
        assertThat(proactive.onSample(two, at(100))).isEqualTo(new WorkerDecision.Keep(
                Kind.AT_INITIAL, "keep: mean CPU 5% < U_min 40%, but never below the initial 2 workers (2 running)"));
    }

    @Test
    void lowUtilizationReleasesOnlyWorkersIdleAtLeastTIdle() {
        WorkerLayer layer = WorkerLayer.of(Worker.busy("w1", 20), Worker.busy("w2", 20), Worker.idle("w3", at(0), 0),
                Worker.idle("w4", at(1), 0));
        assertThat(proactive.onSample(layer, at(59))).isEqualTo(new WorkerDecision.Keep(
                Kind.NOT_IDLE_LONG, "keep: mean CPU 10% < U_min 40%, but no worker idle >= t_idle 60 s (2 × O_grow 30 s)"));
        assertThat(proactive.onSample(layer, at(60))).isEqualTo(new WorkerDecision.Release(Kind.BELOW_U_MIN, List.of("w3"),
                "release w3: mean CPU 10% < U_min 40%; idle since 10:00:00, 60 s >= t_idle 60 s (2 × O_grow 30 s)"));
    }

    @Test
    void theGrowStepIsTheInitialDeployment() {
        WorkerPolicy startedWithFive = WorkerPolicy.of(ProvisioningSettings.defaults(PolicyKind.PROACTIVE, 5));
        assertThat(startedWithFive.onSample(layer(busy(5, 75)), at(0)))
                .isEqualTo(new WorkerDecision.Grow(Kind.ABOVE_U_MAX, 5, "grow 5: mean CPU 75% > U_max 50%, adding the initial 5 workers"));
    }

    @Test
    void theFrameworksRequestsAreRefused() {
        assertThat(proactive.onGrowRequest(layer(busy(2, 99)), 3)).isEqualTo(new WorkerDecision.Keep(
                Kind.NOT_ON_REQUEST, "grow refused: proactive provisioning grows when mean CPU exceeds U_max 50%, not on request"));
        String why = "proactive provisioning releases workers when mean CPU drops below U_min 40%, not on request";
        assertThat(proactive.onShrinkRequest(four(0, 0), List.of("w3", "w4"), at(600))).isEqualTo(new WorkerDecision.Keep(
                Kind.NOT_ON_REQUEST, "shrink refused: " + why,
                List.of(new WorkerDecision.Refusal("w3", Kind.NOT_ON_REQUEST, why), new WorkerDecision.Refusal("w4", Kind.NOT_ON_REQUEST, why))));
        assertThat(proactive.onIdleReleaseRequest(four(0, 0), at(600))).isEqualTo(new WorkerDecision.Keep(
                Kind.NOT_ON_REQUEST, "shrink refused: " + why));
    }

    @Test
    void withNoRunningWorkersThereIsNothingToSample() {
        assertThat(proactive.onSample(WorkerLayer.of().withStarting(2), at(0)))
                .isEqualTo(new WorkerDecision.Keep(Kind.NO_SAMPLES, "keep: no running workers to sample"));
    }
}
