package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import org.junit.jupiter.api.Test;

/**
 * Two OnDemand instances on a grid of 3 nodes, worked through in virtual time: a's job of three RLs
 * arrives at 10 s, b's job of two at 100 s; RLs run 300 s at 80% CPU; O_grow 30 s; samples every
 * 40 s; arbitration rounds every 15 s; the run lasts 1,000 s.
 */
class SharedGridTest {
    private static final Workload A = WorkloadFile.parse("a.txt", List.of("# length 1000",
            "10 j1 a1 rl 300 30 80", "10 j1 a2 rl 300 30 80", "10 j1 a3 rl 300 30 80"), 1);
    private static final Workload B = WorkloadFile.parse("b.txt", List.of("# length 1000",
            "100 j1 b1 rl 300 30 80", "100 j1 b2 rl 300 30 80"), 1);
    private static final ProvisioningSettings ON_DEMAND = ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0);

    private static Simulation.Shared run(ShareRule rule) {
        return grid(rule).runShared(A.end());
    }

    private static Simulation grid(ShareRule rule) {
        Simulation sim = new Simulation(new SimGrid(List.of(3), SimGrid.Background.NONE, 1), 1);
        if (rule != null) {
            sim.arbitrated(ArbitrationSettings.of(rule));
        }
        return sim.instance("a", A, ON_DEMAND, GrowDelay.fixed(Duration.ofSeconds(30)), "fs0")
                .instance("b", B, ON_DEMAND, GrowDelay.fixed(Duration.ofSeconds(30)), "fs0");
    }

    @Test
    void fcfsRefusesTheLateComerAndIsTheGridAsItWas() {
        // a takes all 3 nodes at 10 s; at 100 s b finds none free and nobody gives back: both its RLs are rejected
        Simulation.Shared fcfs = run(ShareRule.FCFS);
        assertThat(fcfs.tenants()).extracting(t -> t.run().rejected()).containsExactly(0L, 2L);
        assertThat(fcfs.takenBack()).isZero();
        // through the arbiter or without it, the very same run
        assertThat(grid(ShareRule.FCFS).run(A.end())).isEqualTo(grid(null).run(A.end()));
    }

    @Test
    void fairTakesANodeBackAfterTheGraceAndTheLateComerWaitsForIt() {
        // 100 s: b asks for 2. Demands a 3 (busy), b 2 on 3 nodes: level 1.5, the odd node to a by id: shares 2
        // and 1. b is entitled to 1: a (all busy) is asked to give 1 back by 115 s; the other is refused.
        // a's framework has no idle worker to give; at the round of 120 s KOALA ends fs0.2 (all at 80%: the
        // highest id), whose RL is lost, and grants the node to b; b's worker reports in at 150 s and its job
        // goes: one RL runs, one is rejected (one worker). b waited 50 s.
        Simulation.Shared fair = run(ShareRule.FAIR);
        TenantMetrics a = fair.tenants().get(0);
        TenantMetrics b = fair.tenants().get(1);
        assertThat(a.killed()).isEqualTo(1);
        assertThat(a.lostPercent()).isCloseTo(100.0 / 3, within(1e-9));
        assertThat(a.takenBack()).isEqualTo(1);
        assertThat(b.run().rejected()).isEqualTo(1);
        assertThat(b.run().meanWaitSeconds()).isEqualTo(50);
        assertThat(fair.ended()).isEqualTo(1);
        assertThat(fair.askedToShrink()).isEqualTo(1);
        // useful node-time: a's two RLs 300 s each and the killed one nothing; b's RL from 150 s, 300 s
        assertThat(a.usefulNodeHours() + b.usefulNodeHours()).isCloseTo(900 / 3600.0, within(1e-9));
        assertThat(fair.utilization()).isCloseTo(100 * 900.0 / (3 * 1000), within(1e-9));
    }

    @Test
    void staticPartitionNeverLetsOneInstanceHoldMoreThanItsPart() {
        // parts of 3 nodes for two equal weights: 2 and 1 (the odd node to a, by id). a gets 2 of its 3 at
        // 10 s though the third is free; b gets its 1 at 100 s
        Simulation.Shared partition = run(ShareRule.STATIC_PARTITION);
        assertThat(partition.tenants()).extracting(t -> t.run().rejected()).containsExactly(1L, 1L);
        assertThat(partition.takenBack()).isZero();
    }
}
