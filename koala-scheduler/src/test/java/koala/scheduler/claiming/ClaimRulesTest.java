package koala.scheduler.claiming;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A two-component job: component 0 has 2 nodes on fs0, component 1 has 3 nodes on fs1, all pilots
 * submitted at 10:00:00; claims time out after 60 s; the job is requeued at the 3rd failure.
 */
class ClaimRulesTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private final ClaimRules rules = new ClaimRules(Duration.ofSeconds(60), 3);

    private static NodeClaim node(int component, int rank, String site, NodeState state) {
        return new NodeClaim("7." + component + "." + rank, 7, component, rank, site, state, "p" + rank, null, null,
                "t", T0, 1);
    }

    private static List<NodeClaim> job(NodeState c1r2) {
        return List.of(node(0, 0, "fs0", NodeState.ARRIVED), node(0, 1, "fs0", NodeState.ARRIVED),
                node(1, 0, "fs1", NodeState.ARRIVED), node(1, 1, "fs1", NodeState.ARRIVED),
                node(1, 2, "fs1", c1r2));
    }

    @Test
    void whileAPilotWaitsWithinTheTimeOutTheJobWaitsAndSaysHowFarItGot() {
        assertThat(rules.check(job(NodeState.SUBMITTED), 0, T0.plusSeconds(59)))
                .isEqualTo(new ClaimVerdict.Waiting("claiming nodes: 4 of 5 arrived"));
    }

    @Test
    void whenEveryNodeHasArrivedTheJobStarts() {
        assertThat(rules.check(job(NodeState.ARRIVED), 0, T0.plusSeconds(5))).isEqualTo(new ClaimVerdict.AllClaimed());
    }

    @Test
    void atTheTimeOutOnlyThePartWithTheLatePilotIsPlacedAgain() {
        assertThat(rules.check(job(NodeState.SUBMITTED), 1, T0.plusSeconds(60))).isEqualTo(new ClaimVerdict.Replace(
                List.of(new ClaimVerdict.Part(1, "fs1", 3)),
                "component 1 on fs1: not all pilots started within 60 s; placing again"));
    }

    @Test
    void theThirdFailureSendsTheWholeJobBackToTheQueue() {
        assertThat(rules.check(job(NodeState.SUBMITTED), 2, T0.plusSeconds(61))).isEqualTo(new ClaimVerdict.Requeue(
                "component 1 on fs1: not all pilots started within 60 s; claims failed 3 times, back to the queue"));
    }

    @Test
    void aPilotNotYetAcceptedByItsAgentNeverTimesOut() {
        NodeClaim unsent = new NodeClaim("7.0.0", 7, 0, 0, "fs0", NodeState.SUBMITTED, null, null, null, "t", null, 1);
        assertThat(rules.check(List.of(unsent), 0, T0.plusSeconds(3600)))
                .isEqualTo(new ClaimVerdict.Waiting("claiming nodes: 0 of 1 arrived"));
    }

    @Test
    void pilotNamesTellTheSchedulerTheNodeAndTheAttempt() {
        NodeClaim first = node(1, 2, "fs1", NodeState.SUBMITTED);
        assertThat(first.pilotName("k3x9q2")).isEqualTo("koala-k3x9q2-7-1-2-a1");
        assertThat(first.movedTo("fs2", "t2").pilotName("k3x9q2")).isEqualTo("koala-k3x9q2-7-1-2-a2");
        assertThat(NodeClaim.isPilotName("koala-k3x9q2-7-1-2-a1", "k3x9q2")).isTrue();
        assertThat(NodeClaim.isPilotName("koala-zzzzzz-7-1-2-a1", "k3x9q2")).as("another scheduler's").isFalse();
        assertThat(NodeClaim.isPilotName("koala-7-1-2-a1", "k3x9q2")).as("untagged, from before tags").isFalse();
        assertThat(NodeClaim.isPilotName("koala-k3x9q2-7-1-2-a1.sh", "k3x9q2")).isFalse();
        assertThat(NodeClaim.isPilotName(null, "k3x9q2")).isFalse();
    }
}
