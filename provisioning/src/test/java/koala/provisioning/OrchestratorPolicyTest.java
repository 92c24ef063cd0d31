package koala.provisioning;

import static koala.provisioning.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Threshold 45 orchestrators per orchestrator node, t_idle 180 s; T0 is 10:00:00. */
class OrchestratorPolicyTest {
    private final OrchestratorPolicy policy = new OrchestratorPolicy(Fixtures.settings(PolicyKind.ONDEMAND, 2, 180));

    @Test
    void the45thOrchestratorFitsOnOneNodeAndThe46thSpillsToANewOne() {
        assertThat(policy.place(OrchestratorLayer.of(OrchestratorNode.hosting("o1", 44)))).isEqualTo(
                new OrchestratorDecision.UseNode("o1", "use o1, the least loaded (44): 45 orchestrators on 1 node "
                        + "average 45 <= threshold 45"));
        assertThat(policy.place(OrchestratorLayer.of(OrchestratorNode.hosting("o1", 45)))).isEqualTo(
                new OrchestratorDecision.NewNode("new orchestrator node: 46 orchestrators on 1 node would average 46 "
                        + "> threshold 45"));
    }

    @Test
    void withRoomOnAverageTheLeastLoadedNodeTakesIt() {
        OrchestratorLayer two = OrchestratorLayer.of(OrchestratorNode.hosting("o1", 45), OrchestratorNode.hosting("o2", 44));
        assertThat(policy.place(two)).isEqualTo(new OrchestratorDecision.UseNode("o2",
                "use o2, the least loaded (44): 90 orchestrators on 2 nodes average 45 <= threshold 45"));
        OrchestratorLayer full = OrchestratorLayer.of(OrchestratorNode.hosting("o1", 45), OrchestratorNode.hosting("o2", 45));
        assertThat(policy.place(full)).isEqualTo(new OrchestratorDecision.NewNode(
                "new orchestrator node: 91 orchestrators on 2 nodes would average 45.5 > threshold 45"));
    }

    @Test
    void equallyLoadedNodesAreTakenById() {
        OrchestratorLayer layer = OrchestratorLayer.of(OrchestratorNode.hosting("o10", 3), OrchestratorNode.hosting("o9", 3),
                OrchestratorNode.hosting("o2", 7));
        assertThat(policy.place(layer)).isEqualTo(new OrchestratorDecision.UseNode("o9",
                "use o9, the least loaded (3): 14 orchestrators on 3 nodes average 4.67 <= threshold 45"));
    }

    @Test
    void anEmptyNodeIsReusedBeforeAnyIsAskedFor() {
        OrchestratorLayer layer = OrchestratorLayer.of(OrchestratorNode.hosting("o1", 45), OrchestratorNode.empty("o2", at(0)));
        assertThat(policy.place(layer)).isEqualTo(new OrchestratorDecision.UseNode("o2",
                "use o2, the least loaded (0): 46 orchestrators on 2 nodes average 23 <= threshold 45"));
    }

    @Test
    void anInstanceWithoutOrchestratorNodesAsksForOne() {
        assertThat(policy.place(OrchestratorLayer.of()))
                .isEqualTo(new OrchestratorDecision.NewNode("new orchestrator node: the instance has none"));
    }

    @Test
    void aNodeEmpty179SecondsStaysAndAt180SecondsIsReturned() {
        OrchestratorLayer layer = OrchestratorLayer.of(OrchestratorNode.hosting("o1", 3), OrchestratorNode.empty("o2", at(0)));
        assertThat(policy.releaseIdle(layer, at(179)))
                .isEqualTo(new OrchestratorDecision.Keep("keep: no orchestrator node empty >= t_idle 180 s"));
        assertThat(policy.releaseIdle(layer, at(180))).isEqualTo(new OrchestratorDecision.Release(List.of("o2"),
                "return o2: empty since 10:00:00, 180 s >= t_idle 180 s"));
    }

    @Test
    void oneOrchestratorNodeAlwaysStays() {
        OrchestratorLayer alone = OrchestratorLayer.of(OrchestratorNode.empty("o1", at(0)));
        assertThat(policy.releaseIdle(alone, at(600))).isEqualTo(new OrchestratorDecision.Keep(
                "keep: o1 empty since 10:00:00, 600 s >= t_idle 180 s, but one orchestrator node always stays"));
        // all three empty long enough: the two longest empty go, the most recently emptied stays
        OrchestratorLayer three = OrchestratorLayer.of(OrchestratorNode.empty("o1", at(120)),
                OrchestratorNode.empty("o3", at(0)), OrchestratorNode.empty("o2", at(0)));
        assertThat(policy.releaseIdle(three, at(600))).isEqualTo(new OrchestratorDecision.Release(List.of("o2", "o3"),
                "return o2, o3: empty since 10:00:00, 600 s >= t_idle 180 s; o1 stays: one orchestrator node always stays"));
    }

    @Test
    void aHostingNodeIsTheOneThatStays() {
        OrchestratorLayer layer = OrchestratorLayer.of(OrchestratorNode.hosting("o1", 1), OrchestratorNode.empty("o2", at(0)),
                OrchestratorNode.empty("o3", at(100)));
        assertThat(policy.releaseIdle(layer, at(300))).isEqualTo(new OrchestratorDecision.Release(List.of("o2", "o3"),
                "return o2, o3: o2 empty since 10:00:00, 300 s; o3 empty since 10:01:40, 200 s; each >= t_idle 180 s"));
    }

    @Test
    void withTheFactorFormTIdleFollowsTheGrowOverhead() {
        OrchestratorPolicy paper = new OrchestratorPolicy(ProvisioningSettings.defaults(PolicyKind.PROACTIVE, 2));
        OrchestratorLayer layer = OrchestratorLayer.of(OrchestratorNode.hosting("o1", 1), OrchestratorNode.empty("o2", at(0)))
                .withGrowOverhead(Duration.ofSeconds(40));
        assertThat(paper.releaseIdle(layer, at(79))).isEqualTo(
                new OrchestratorDecision.Keep("keep: no orchestrator node empty >= t_idle 80 s (2 × O_grow 40 s)"));
        assertThat(paper.releaseIdle(layer, at(80))).isInstanceOf(OrchestratorDecision.Release.class);
    }
}
