package koala.provisioning;

import static koala.provisioning.Fixtures.T0;
import static koala.provisioning.Fixtures.at;
import static koala.provisioning.Fixtures.busy;
import static koala.provisioning.Fixtures.layer;
import static org.assertj.core.api.Assertions.assertThat;
import koala.provisioning.WorkerDecision.Kind;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reserve with F_max 20, a reserve of 50% of the busy workers and t_idle 180 s unless a test says otherwise; T0 is 10:00:00. */
class ReservePolicyTest {
    private final WorkerPolicy reserve = WorkerPolicy.of(Fixtures.settings(PolicyKind.RESERVE, 0, 180));

    /** 5 busy workers and 4 idle ones: i1 idle since 10:00:00, i2 since 10:01:00, i3 and i4 since 10:02:00. */
    private static WorkerLayer fiveBusyFourIdle() {
        return layer(busy(5, 90), Worker.idle("i1", T0, 0), Worker.idle("i2", at(60), 0), Worker.idle("i3", at(120), 0),
                Worker.idle("i4", at(120), 0));
    }

    @Test
    void theJdfSelectsItByNameAndItsReserveIsASetting() {
        ProvisioningSettings s = SettingsResolver.resolve(SettingsLayer.parse(Map.of("provisioning", "reserve",
                "reserve", "25"))).settings();
        assertThat(WorkerPolicy.of(s)).isInstanceOf(ReservePolicy.class);
        assertThat(s.reservePercent()).isEqualTo(25);
        assertThat(s.tIdle()).isEqualTo(IdleTime.factor(6));
        assertThat(PolicyKind.RESERVE.frameworkResizes()).isTrue();
        assertThat(PolicyKind.RESERVE.keepsInitialWorkers()).isFalse();
    }

    @Test
    void aReserveOutsideZeroToAHundredPercentIsRefused() {
        assertThat(SettingsResolver.check("", SettingsLayer.EMPTY, SettingsLayer.parse(Map.of("provisioning", "reserve"))
                .withReservePercent(120))).extracting(SettingProblem::toString)
                .containsExactly("reserve: 120 is not a percentage (0 to 100); from jdf");
    }

    @Test
    void theReserveIsHalfTheBusyWorkersRoundedUp() {
        ReservePolicy policy = (ReservePolicy) reserve;
        assertThat(policy.reserveSize(layer(busy(16, 90)))).isEqualTo(8);
        assertThat(policy.reserveSize(fiveBusyFourIdle())).isEqualTo(3);
        assertThat(policy.reserveSize(layer(List.of(), Worker.idle("i1", T0, 0)))).isZero();
    }

    @Test
    void idleWorkersBeyondTheReserveGoAtOnceTheReserveAfterTIdle() {
        // at 10:03:00 the reserve of 3 is the latest idle: i3, i4 (10:02:00, ties by id), then i2;
        // i1 is outside it and goes although idle only 180 s... and i2, idle 120 s, stays
        assertThat(reserve.onIdleReleaseRequest(fiveBusyFourIdle(), at(180))).isEqualTo(new WorkerDecision.Release(
                Kind.IDLE, List.of("i1"), "release i1: warm reserve of 3 (50% of 5 busy workers): i3, i4, i2; reserve kept for "
                        + "t_idle 180 s"));
        // at 10:04:00 i2 has been idle 180 s: it goes, although in the reserve; i3 and i4 stay
        assertThat(reserve.onIdleReleaseRequest(fiveBusyFourIdle(), at(240))).extracting(WorkerDecision::reason)
                .isEqualTo("release i1, i2: warm reserve of 3 (50% of 5 busy workers): i3, i4, i2; reserve kept for "
                        + "t_idle 180 s");
    }

    @Test
    void aShrinkRequestIsAnsweredWorkerByWorkerWithWhyTheOthersStay() {
        WorkerDecision d = reserve.onShrinkRequest(fiveBusyFourIdle(), List.of("i4", "b1", "i1", "x9"), at(150));
        assertThat(d.reason()).isEqualTo("release i1: warm reserve of 3 (50% of 5 busy workers): i3, i4, i2; reserve "
                + "kept for t_idle 180 s; refused i4 in the warm reserve, idle since 10:02:00, 30 s < t_idle 180 s; "
                + "b1 busy; x9 not a worker of this instance");
        assertThat(d.refused()).extracting(WorkerDecision.Refusal::worker).containsExactly("i4", "b1", "x9");
    }

    @Test
    void withNothingBusyEveryIdleWorkerGoesAtOnce() {
        WorkerLayer alone = layer(List.of(), Worker.idle("i1", at(100), 0), Worker.idle("i2", at(100), 0));
        assertThat(reserve.onIdleReleaseRequest(alone, at(100))).isEqualTo(new WorkerDecision.Release(
                Kind.IDLE, List.of("i1", "i2"), "release i1, i2: warm reserve of 0 (50% of 0 busy workers); reserve kept for "
                        + "t_idle 180 s"));
    }

    @Test
    void growsAreOnDemandsAndSamplesChangeNothing() {
        assertThat(reserve.onGrowRequest(layer(busy(16, 90)), 6))
                .isEqualTo(new WorkerDecision.Grow(Kind.AT_FMAX, 4, "grow 4 of 6 requested: F_max 20 leaves room for 4"));
        assertThat(reserve.onSample(fiveBusyFourIdle(), at(600)))
                .isEqualTo(new WorkerDecision.Keep(Kind.NOT_ON_SAMPLE, "keep: reserve provisioning resizes when the framework asks"));
    }
}
