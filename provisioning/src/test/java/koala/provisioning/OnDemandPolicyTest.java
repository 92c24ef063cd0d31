package koala.provisioning;

import static koala.provisioning.Fixtures.at;
import static koala.provisioning.Fixtures.busy;
import static koala.provisioning.Fixtures.layer;
import static org.assertj.core.api.Assertions.assertThat;
import koala.provisioning.WorkerDecision.Kind;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OnDemand with F_max 20, 2 initial workers and t_idle 180 s unless a test says otherwise; T0 is 10:00:00. */
class OnDemandPolicyTest {
    private final WorkerPolicy onDemand = WorkerPolicy.of(Fixtures.settings(PolicyKind.ONDEMAND, 2, 180));

    @Test
    void aGrowThatFitsIsGrantedAsRequested() {
        assertThat(onDemand.onGrowRequest(layer(busy(4, 90)), 6))
                .isEqualTo(new WorkerDecision.Grow(Kind.REQUESTED, 6, "grow 6 as requested: 10 workers after, F_max 20"));
    }

    @Test
    void aGrowPastFMaxIsGrantedInPart() {
        assertThat(onDemand.onGrowRequest(layer(busy(16, 90)), 6))
                .isEqualTo(new WorkerDecision.Grow(Kind.AT_FMAX, 4, "grow 4 of 6 requested: F_max 20 leaves room for 4"));
        // workers still starting count towards F_max: 14 running + 2 starting leave room for 4 too
        assertThat(onDemand.onGrowRequest(layer(busy(14, 90)).withStarting(2), 6))
                .isEqualTo(new WorkerDecision.Grow(Kind.AT_FMAX, 4, "grow 4 of 6 requested: F_max 20 leaves room for 4"));
    }

    @Test
    void aGrowAtFMaxIsRefused() {
        assertThat(onDemand.onGrowRequest(layer(busy(20, 90)), 1))
                .isEqualTo(new WorkerDecision.Keep(Kind.AT_FMAX, "grow refused: F_max 20 reached (20 workers)"));
        assertThat(onDemand.onGrowRequest(layer(busy(18, 90)).withStarting(2), 3))
                .isEqualTo(new WorkerDecision.Keep(Kind.AT_FMAX, "grow refused: F_max 20 reached (18 workers + 2 starting)"));
    }

    @Test
    void aGrowIsGrantedNoMoreThanTheGridsFreeNodes() {
        assertThat(onDemand.onGrowRequest(layer(busy(4, 90)).withGridFreeNodes(3), 6))
                .isEqualTo(new WorkerDecision.Grow(Kind.GRID_FULL, 3, "grow 3 of 6 requested: the grid has 3 free nodes"));
        assertThat(onDemand.onGrowRequest(layer(busy(4, 90)).withGridFreeNodes(0), 6))
                .isEqualTo(new WorkerDecision.Keep(Kind.GRID_FULL, "grow refused: the grid has no free nodes"));
        assertThat(onDemand.onGrowRequest(layer(busy(16, 90)).withGridFreeNodes(4), 6)).isEqualTo(new WorkerDecision.Grow(
                Kind.AT_FMAX, 4, "grow 4 of 6 requested: F_max 20 leaves room for 4 and the grid has 4 free nodes"));
        assertThat(onDemand.onGrowRequest(layer(busy(4, 90)).withGridFreeNodes(10), 6))
                .isEqualTo(new WorkerDecision.Grow(Kind.REQUESTED, 6, "grow 6 as requested: 10 workers after, F_max 20"));
    }

    @Test
    void aGrowForNoWorkersIsRefused() {
        assertThat(onDemand.onGrowRequest(layer(busy(4, 90)), 0))
                .isEqualTo(new WorkerDecision.Keep(Kind.BAD_REQUEST, "grow refused: asked for 0 workers; ask for at least 1"));
    }

    @Test
    void aWorkerIdle179SecondsStaysAndAt180SecondsGoes() {
        WorkerLayer layer = layer(busy(1, 90), Worker.idle("w1", at(0), 2));
        assertThat(onDemand.onShrinkRequest(layer, List.of("w1"), at(179))).isEqualTo(new WorkerDecision.Keep(
                Kind.ALL_REFUSED, "shrink refused: w1 idle since 10:00:00, 179 s < t_idle 180 s",
                List.of(new WorkerDecision.Refusal("w1", Kind.NOT_IDLE_LONG, "idle since 10:00:00, 179 s < t_idle 180 s"))));
        assertThat(onDemand.onShrinkRequest(layer, List.of("w1"), at(180))).isEqualTo(
                new WorkerDecision.Release(Kind.IDLE, List.of("w1"), "release w1: idle since 10:00:00, 180 s >= t_idle 180 s"));
    }

    @Test
    void aShrinkReleasesTheWorkersIdleLongEnoughAndRefusesEachOtherWithItsReason() {
        WorkerLayer layer = layer(List.of(Worker.busy("w1", 95)), Worker.idle("w2", at(120), 3),
                Worker.idle("w3", at(160), 1), Worker.idle("w4", at(260), 0));
        // at 10:06:00: w2 idle 240 s, w3 200 s, w4 100 s; x9 belongs to another instance; w2 named twice
        WorkerDecision decision = onDemand.onShrinkRequest(layer, List.of("w1", "w2", "w3", "w4", "x9", "w2"), at(360));
        assertThat(decision).isEqualTo(new WorkerDecision.Release(Kind.IDLE, List.of("w2", "w3"),
                "release w2, w3: w2 idle since 10:02:00, 240 s; w3 idle since 10:02:40, 200 s; each >= t_idle 180 s; "
                        + "refused w1 busy; w4 idle since 10:04:20, 100 s < t_idle 180 s; x9 not a worker of this instance",
                List.of(new WorkerDecision.Refusal("w1", Kind.BUSY, "busy"),
                        new WorkerDecision.Refusal("w4", Kind.NOT_IDLE_LONG, "idle since 10:04:20, 100 s < t_idle 180 s"),
                        new WorkerDecision.Refusal("x9", Kind.NOT_A_WORKER, "not a worker of this instance"))));
    }

    @Test
    void aShrinkNamingNoWorkersIsRefused() {
        assertThat(onDemand.onShrinkRequest(layer(busy(2, 50)), List.of(), at(0)))
                .isEqualTo(new WorkerDecision.Keep(Kind.BAD_REQUEST, "shrink refused: no workers named"));
    }

    @Test
    void anIdleReleaseTakesEveryWorkerIdleLongEnoughLongestIdleFirstTiesById() {
        WorkerLayer layer = layer(List.of(Worker.busy("w3", 90)), Worker.idle("w1", at(60), 0),
                Worker.idle("w10", at(0), 0), Worker.idle("w2", at(0), 0), Worker.idle("w4", at(300), 0));
        assertThat(onDemand.onIdleReleaseRequest(layer, at(360))).isEqualTo(new WorkerDecision.Release(
                Kind.IDLE, List.of("w2", "w10", "w1"),
                "release w2, w10, w1: w2, w10 idle since 10:00:00, 360 s; w1 idle since 10:01:00, 300 s; "
                        + "each >= t_idle 180 s"));
    }

    @Test
    void anIdleReleaseMayGoBelowTheInitialWorkersBecauseTheFrameworkAsked() {
        WorkerLayer layer = layer(List.of(), Worker.idle("w1", at(0), 0), Worker.idle("w2", at(0), 0));
        assertThat(onDemand.onIdleReleaseRequest(layer, at(200))).isEqualTo(new WorkerDecision.Release(
                Kind.IDLE, List.of("w1", "w2"), "release w1, w2: idle since 10:00:00, 200 s >= t_idle 180 s"));
    }

    @Test
    void withTheFactorFormTIdleIsSixTimesTheGrowOverhead() {
        WorkerPolicy paper = WorkerPolicy.of(ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 2));
        WorkerLayer layer = layer(busy(1, 80), Worker.idle("w1", at(0), 0)).withGrowOverhead(Duration.ofSeconds(35));
        // t_idle = 6 x 35 s = 210 s
        assertThat(paper.onIdleReleaseRequest(layer, at(209)))
                .isEqualTo(new WorkerDecision.Keep(Kind.NOT_IDLE_LONG, "keep: no worker idle >= t_idle 210 s (6 × O_grow 35 s)"));
        assertThat(paper.onIdleReleaseRequest(layer, at(210))).isEqualTo(new WorkerDecision.Release(Kind.IDLE, List.of("w1"),
                "release w1: idle since 10:00:00, 210 s >= t_idle 210 s (6 × O_grow 35 s)"));
    }

    @Test
    void samplesChangeNothing() {
        assertThat(onDemand.onSample(layer(busy(4, 100)), at(0)))
                .isEqualTo(new WorkerDecision.Keep(Kind.NOT_ON_SAMPLE, "keep: ondemand provisioning resizes when the framework asks"));
    }
}
