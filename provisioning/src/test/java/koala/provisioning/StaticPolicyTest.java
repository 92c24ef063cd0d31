package koala.provisioning;

import static koala.provisioning.Fixtures.at;
import static koala.provisioning.Fixtures.busy;
import static koala.provisioning.Fixtures.layer;
import static org.assertj.core.api.Assertions.assertThat;
import koala.provisioning.WorkerDecision.Kind;

import java.util.List;
import org.junit.jupiter.api.Test;

class StaticPolicyTest {
    private final WorkerPolicy fixed = WorkerPolicy.of(ProvisioningSettings.defaults(PolicyKind.STATIC, 4));

    @Test
    void neverGrowsNorShrinks() {
        WorkerLayer idle = layer(List.of(), Worker.idle("w1", at(0), 0), Worker.idle("w2", at(0), 0));
        String why = "static provisioning keeps its initial 4 workers";
        assertThat(fixed.onGrowRequest(layer(busy(4, 100)), 2)).isEqualTo(new WorkerDecision.Keep(Kind.NOT_ON_REQUEST, "grow refused: " + why));
        assertThat(fixed.onShrinkRequest(idle, List.of("w1"), at(3600))).isEqualTo(new WorkerDecision.Keep(
                Kind.NOT_ON_REQUEST, "shrink refused: " + why, List.of(new WorkerDecision.Refusal("w1", Kind.NOT_ON_REQUEST, why))));
        assertThat(fixed.onIdleReleaseRequest(idle, at(3600))).isEqualTo(new WorkerDecision.Keep(Kind.NOT_ON_REQUEST, "shrink refused: " + why));
        assertThat(fixed.onSample(layer(busy(4, 100)), at(0))).isEqualTo(new WorkerDecision.Keep(Kind.NOT_ON_SAMPLE, "keep: " + why));
        assertThat(fixed.onSample(idle, at(3600))).isEqualTo(new WorkerDecision.Keep(Kind.NOT_ON_SAMPLE, "keep: " + why));
    }

    @Test
    void thePolicyFollowsTheSettings() {
        assertThat(fixed).isInstanceOf(StaticPolicy.class);
        assertThat(WorkerPolicy.of(ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0))).isInstanceOf(OnDemandPolicy.class);
        assertThat(WorkerPolicy.of(ProvisioningSettings.defaults(PolicyKind.PROACTIVE, 1)).kind())
                .isEqualTo(PolicyKind.PROACTIVE);
    }
}
