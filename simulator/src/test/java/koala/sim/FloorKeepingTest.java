package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import org.junit.jupiter.api.Test;

/**
 * A Static instance s (4 initial workers) and an OnDemand instance o on a grid of 6 nodes under fair
 * (half the capacity, 3 nodes, may be taken back per round); O_grow 30 s, samples every 40 s, RLs
 * at 80% CPU. s runs s1 from 5 s to 905 s and s2 from 700 s; o's job of four RLs of 500 s arrives
 * at 100 s.
 */
class FloorKeepingTest {
    private static final Workload S = WorkloadFile.parse("s.txt", List.of("# length 1000",
            "5 j1 s1 rl 900 30 80", "700 j2 s2 rl 300 30 80"), 1);
    private static final Workload O = WorkloadFile.parse("o.txt", List.of("# length 1000",
            "100 j1 o1 rl 500 30 80", "100 j1 o2 rl 500 30 80", "100 j1 o3 rl 500 30 80", "100 j1 o4 rl 500 30 80"), 1);

    private static Simulation.Shared run(Simulation.FloorKeeping how) {
        return new Simulation(new SimGrid(List.of(6), SimGrid.Background.NONE, 1), 1).floorKeeping(how)
                .arbitrated(ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(0.5))
                .instance("o", O, ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0),
                        GrowDelay.fixed(Duration.ofSeconds(30)), "fs0")
                .instance("s", S, ProvisioningSettings.defaults(PolicyKind.STATIC, 4),
                        GrowDelay.fixed(Duration.ofSeconds(30)), "fs0")
                .runShared(S.end());
    }

    @Test
    void bothGiveTheIdleReserveToTheAskerFirst() {
        // 100 s: o asks for 4 with 2 nodes free. s uses 1 (s1), o asks 4: demands 1 + 4 fit in 6, so the shares are
        // the demands; o gets the 2 free nodes and 2 of s's 3 idle workers, ended at once. s is down to 2
        for (Simulation.FloorKeeping how : Simulation.FloorKeeping.values()) {
            TenantMetrics s = run(how).tenants().get(1);
            assertThat(s.takenBack()).as(how.name()).isEqualTo(2);
            assertThat(s.killed()).as(how.name()).isZero();
        }
    }

    @Test
    void atOnceTheStaticRunnerAsksABusyInstanceAgainAndAgainForAReserveItLeavesIdle() {
        // AT_ONCE, as the runner did: s asks for its 2 missing workers at every sample. Until 400 s it gave nodes
        // back within the window (300 s) and takes none back. At 400 s its demand is s1 and its ask, 1 + 2, o's its
        // four RLs, 7 on 6 nodes: shares 3 and 3, and o, all busy, is asked to give 1 back by 415 s. By then s asks
        // nothing (its demand is s1 and the node owed, 2 + 4 fit in 6) and o is no longer above its share: the ask
        // is dropped. The same at 440, 480, 520, 560 and 600 s: six asks, and for 15 s each o may get no node. At
        // 640 s o's RLs have ended (630 s) and s takes one of its idle workers
        Simulation.Shared atOnce = run(Simulation.FloorKeeping.AT_ONCE);
        TenantMetrics o = atOnce.tenants().get(0);
        assertThat(atOnce.askedToShrink()).isEqualTo(6);
        assertThat(atOnce.ended()).isZero();
        assertThat(o.takenBack()).isEqualTo(1);
        assertThat(o.killed()).isZero();
    }

    @Test
    void whenNeededItAsksForOneOnlyOnceNoneOfItsWorkersIsIdle() {
        // WHEN_NEEDED: s has an idle worker until s2 starts on it at 700 s, and asks nothing. At the sample of 720 s
        // both its workers are busy and it asks for 1: o's RLs ended at 630 s and its 4 workers are idle, demands
        // 2 + 1 and 0: s takes one of o's idle workers. Nobody's work is lost
        Simulation.Shared whenNeeded = run(Simulation.FloorKeeping.WHEN_NEEDED);
        TenantMetrics o = whenNeeded.tenants().get(0);
        TenantMetrics s = whenNeeded.tenants().get(1);
        assertThat(whenNeeded.askedToShrink()).isZero();
        assertThat(o.takenBack()).isEqualTo(1);
        assertThat(o.killed()).isZero();
        assertThat(o.lostPercent()).isZero();
        assertThat(s.lostPercent()).isZero();
        assertThat(whenNeeded.ended()).isZero();
    }
}
