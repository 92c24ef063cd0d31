package koala.provisioning;

import static koala.provisioning.Fixtures.T0;
import static koala.provisioning.Fixtures.at;
import static koala.provisioning.Fixtures.busy;
import static koala.provisioning.Fixtures.layer;
import static org.assertj.core.api.Assertions.assertThat;
import koala.provisioning.WorkerDecision.Kind;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pool with F_max 20, a pool of 2 idle workers and t_idle 600 s unless a test says otherwise; T0 is 10:00:00. */
class PoolPolicyTest {
    private final WorkerPolicy pool = WorkerPolicy.of(Fixtures.settings(PolicyKind.POOL, 0, 600).asLayer().withPool(2)
            .toSettings());

    /** 5 busy workers and 4 idle ones: i1 idle since 10:00:00, i2 since 10:01:00, i3 and i4 since 10:02:00. */
    private static WorkerLayer fiveBusyFourIdle() {
        return layer(busy(5, 90), Worker.idle("i1", T0, 0), Worker.idle("i2", at(60), 0), Worker.idle("i3", at(120), 0),
                Worker.idle("i4", at(120), 0));
    }

    @Test
    void theJdfSelectsItByNameItsPoolIsASettingAndItsPoolWaitsSixtyGrowTimes() {
        ProvisioningSettings s = SettingsResolver.resolve(SettingsLayer.parse(Map.of("provisioning", "pool",
                "pool", "8"))).settings();
        assertThat(WorkerPolicy.of(s)).isInstanceOf(PoolPolicy.class);
        assertThat(s.pool()).isEqualTo(8);
        assertThat(s.tIdle()).isEqualTo(IdleTime.factor(60));
        assertThat(s.idleTime(Duration.ofSeconds(30))).isEqualTo(Duration.ofMinutes(30));
        assertThat(PolicyKind.POOL.frameworkResizes()).isTrue();
        assertThat(PolicyKind.POOL.keepsInitialWorkers()).isFalse();
        assertThat(ProvisioningSettings.defaults(PolicyKind.POOL, 0).pool()).isEqualTo(8);
    }

    @Test
    void idleWorkersBeyondThePoolGoAtOnceWhateverTheLoad() {
        // the pool is the 2 idle last: i3, i4 (10:02:00, ties by id); i1 and i2 go, longest idle first
        assertThat(pool.onIdleReleaseRequest(fiveBusyFourIdle(), at(130))).isEqualTo(new WorkerDecision.Release(
                Kind.IDLE, List.of("i1", "i2"), "release i1, i2: warm pool of 2 idle workers: i3, i4; pool kept for t_idle 600 s"));
        // with nothing busy the pool is still 2
        WorkerLayer alone = layer(List.of(), Worker.idle("i1", T0, 0), Worker.idle("i2", at(60), 0),
                Worker.idle("i3", at(120), 0));
        assertThat(pool.onIdleReleaseRequest(alone, at(130))).extracting(WorkerDecision::reason)
                .isEqualTo("release i1: warm pool of 2 idle workers: i3, i2; pool kept for t_idle 600 s");
    }

    @Test
    void thePoolGoesAfterTIdle() {
        // at 10:12:00 i3 and i4 have been idle 600 s: the whole pool goes too
        assertThat(pool.onIdleReleaseRequest(fiveBusyFourIdle(), at(720))).extracting(WorkerDecision::reason)
                .isEqualTo("release i1, i2, i3, i4: warm pool of 2 idle workers: i3, i4; pool kept for t_idle 600 s");
        assertThat(pool.onIdleReleaseRequest(layer(busy(3, 90), Worker.idle("i3", at(120), 0)), at(719)))
                .isEqualTo(new WorkerDecision.Keep(Kind.IN_RESERVE, "keep: warm pool of 2 idle workers: i3; pool kept for t_idle 600 s"));
    }

    @Test
    void aShrinkRequestIsAnsweredWorkerByWorker() {
        WorkerDecision d = pool.onShrinkRequest(fiveBusyFourIdle(), List.of("i4", "b1", "i1"), at(150));
        assertThat(d.reason()).isEqualTo("release i1: warm pool of 2 idle workers: i3, i4; pool kept for t_idle 600 s; "
                + "refused i4 in the warm pool, idle since 10:02:00, 30 s < t_idle 600 s; b1 busy");
    }

    @Test
    void growsAreOnDemandsAndSamplesChangeNothing() {
        assertThat(pool.onGrowRequest(layer(busy(18, 90)), 5)).isEqualTo(new WorkerDecision.Grow(Kind.AT_FMAX, 2,
                "grow 2 of 5 requested: F_max 20 leaves room for 2"));
        assertThat(pool.onSample(fiveBusyFourIdle(), at(10))).isInstanceOf(WorkerDecision.Keep.class);
    }
}
