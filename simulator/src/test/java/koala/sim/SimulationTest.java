package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import koala.provisioning.IdleTime;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import org.junit.jupiter.api.Test;

/**
 * Worked examples in virtual time: one job of two RLs arriving at 10 s, each running 300 s at a
 * constant 80% CPU; O_grow 30 s; samples every 40 s (the first at 40 s); the run lasts 1,000 s.
 */
class SimulationTest {
    private static final Workload TWO_RLS = WorkloadFile.parse("two.txt", List.of(
            "# length 1000",
            "10 j1 a1 rl 300 30 80",
            "10 j1 a2 rl 300 30 80"), 1);

    private static RunMetrics run(ProvisioningSettings settings) {
        return Simulation.one(TWO_RLS, settings, GrowDelay.fixed(Duration.ofSeconds(30)), 1);
    }

    @Test
    void onDemandGrowsForTheJobAndReleasesAfterTIdleAsTheRunnerSeesIt() {
        // grow 2 at 10 s; both report in at 40 s and the job starts then (a 30 s wait); the RLs end at 340 s;
        // the runner's sample at 360 s sees them idle; t_idle = 6 × 30 s = 180 s is reached at 540 s, and the
        // master's release request at the sample of 560 s is granted. Each worker: held 10..560 s = 550 s,
        // of which 30 s starting, 300 s busy, 220 s idle.
        RunMetrics m = run(ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0));
        assertThat(m.applications()).isEqualTo(2);
        assertThat(m.rejected()).isZero();
        assertThat(m.grows()).isEqualTo(1);
        assertThat(m.allocatedHours()).isCloseTo(1100 / 3600.0, within(1e-9));
        assertThat(m.growOverheadHours()).isCloseTo(60 / 3600.0, within(1e-9));
        assertThat(m.busyUtilization()).isCloseTo(100.0 * 600 / 1100, within(1e-9));
        assertThat(m.idleFraction()).isCloseTo(100.0 * 440 / 1100, within(1e-9));
        assertThat(m.cpuUtilization()).isCloseTo(80.0 * 600 / 1100, within(1e-9));
        assertThat(m.meanWaitSeconds()).isEqualTo(30);
    }

    @Test
    void aShorterTIdleReleasesSooner() {
        // t_idle 1 × 30 s: idle since 360 s by the runner's samples, released at the sample of 400 s
        RunMetrics m = run(ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0).asLayer()
                .withTIdle(IdleTime.factor(1)).toSettings());
        assertThat(m.allocatedHours()).isCloseTo(2 * 390 / 3600.0, within(1e-9));
    }

    @Test
    void reserveReleasesIdleWorkersBeyondItsReserveAtTheFirstSampleThatSeesThemIdle() {
        // at 360 s nothing is busy: the reserve is 0 and both go; each held 10..360 s
        RunMetrics m = run(ProvisioningSettings.defaults(PolicyKind.RESERVE, 0));
        assertThat(m.allocatedHours()).isCloseTo(2 * 350 / 3600.0, within(1e-9));
        assertThat(m.cpuUtilization()).isCloseTo(80.0 * 600 / 700, within(1e-9));
    }

    @Test
    void staticWithOneWorkerRejectsTheRlThatFindsNoIdleWorker() {
        RunMetrics m = run(ProvisioningSettings.defaults(PolicyKind.STATIC, 1));
        assertThat(m.rejected()).isEqualTo(1);
        assertThat(m.rejectPercent()).isEqualTo(50);
        // the one worker is held the whole 1,000 s and busy 10..310 s
        assertThat(m.allocatedHours()).isCloseTo(1000 / 3600.0, within(1e-9));
        assertThat(m.busyUtilization()).isCloseTo(30, within(1e-9));
        assertThat(m.grows()).isZero();
    }

    @Test
    void proactiveGrowsByItsInitialCountWhenTheMeanCpuPassesUMax() {
        // 1 initial worker takes a1 (a2 is rejected); the sample at 40 s sees 80% > 50%: grow 1, in at 70 s
        RunMetrics m = run(ProvisioningSettings.defaults(PolicyKind.PROACTIVE, 1));
        assertThat(m.rejected()).isEqualTo(1);
        assertThat(m.grows()).isEqualTo(1);
        assertThat(m.growOverheadHours()).isCloseTo(30 / 3600.0, within(1e-9));
    }

    @Test
    void theClairvoyantBoundFollowsUseExactly() {
        RunMetrics bound = Clairvoyant.bound(TWO_RLS, 1);
        assertThat(bound.rejectPercent()).isEqualTo(50);
        assertThat(bound.cpuUtilization()).isCloseTo(80, within(1e-9));
        assertThat(bound.busyUtilization()).isEqualTo(100);
        assertThat(Clairvoyant.bound(TWO_RLS, 20).rejected()).isZero();
    }

    @Test
    void aRunIsDeterministicForASeed() {
        Workload w = Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(2), 7);
        ProvisioningSettings s = ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0);
        RunMetrics a = Simulation.one(w, s, GrowDelay.PAPER, 7);
        RunMetrics b = Simulation.one(Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(2), 7), s,
                GrowDelay.PAPER, 7);
        assertThat(a).isEqualTo(b);
        assertThat(a.applications()).isPositive();
    }

    @Test
    void instancesShareTheGridAndAGrowPastItsIdleNodesIsGrantedInPart() {
        // 3 nodes for two OnDemand instances each wanting 2 at 10 s: the first gets 2, the second 1 and
        // submits its job with one worker, so one of its RLs is rejected
        SimGrid grid = new SimGrid(List.of(3), SimGrid.Background.NONE, 1);
        ProvisioningSettings s = ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0);
        List<RunMetrics> both = new Simulation(grid, 1).instance("a", TWO_RLS, s, GrowDelay.PAPER, "fs0")
                .instance("b", TWO_RLS, s, GrowDelay.PAPER, "fs0").run(TWO_RLS.end());
        assertThat(both).extracting(RunMetrics::rejected).containsExactly(0L, 1L);
    }
}
