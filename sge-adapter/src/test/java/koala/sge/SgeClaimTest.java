package koala.sge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import koala.api.site.PilotNeeds;
import koala.api.site.PilotSpec;
import koala.common.failure.InvalidField;
import org.junit.jupiter.api.Test;

/**
 * What a pilot claims, in SGE's words after its site's own request: the native specification the scheduler
 * built itself before the claim left SGE's words, byte for byte.
 */
class SgeClaimTest {
    /** 4 cores, 32G and the launcher's 128M (8224M a slot), a GPU, 10 minutes and the minute's grace. */
    private static final PilotNeeds GPU_NODE = new PilotNeeds(4, 32896, 1, Duration.ofSeconds(660), null, null);

    @Test
    void coresMemoryPerSlotGpusAndWallTimeFollowTheSitesRequest() {
        // 12G and 128M over 8 slots: 1552M each
        assertThat(SgeClaim.nativeSpec("", new PilotNeeds(8, 12416, 0, null, null, null)))
                .isEqualTo("-pe smp 8 -l h_vmem=1552M");
        assertThat(SgeClaim.nativeSpec("-P koala", GPU_NODE)).isEqualTo("-P koala -pe smp 4 -l h_vmem=8224M,gpu=1,h_rt=660");
        // 100M and 128M are less than the least a pilot claims, 512M, all on its one slot
        assertThat(SgeClaim.nativeSpec(null, new PilotNeeds(1, 512, 0, null, null, null))).isEqualTo("-l h_vmem=512M");
        // fs0's 2048M a core for 2 cores and 128M: 2112M a slot
        assertThat(SgeClaim.nativeSpec("-P x", new PilotNeeds(2, 4224, 1, null, null, null)))
                .isEqualTo("-P x -pe smp 2 -l h_vmem=2112M,gpu=1");
        // 1000M over 3 slots rounds up to 334M each: SGE then limits the pilot to 1002M, never less than it claims
        assertThat(SgeClaim.nativeSpec(null, new PilotNeeds(3, 1000, 0, null, null, null))).isEqualTo("-pe smp 3 -l h_vmem=334M");
    }

    @Test
    void aPilotThatClaimsNothingBeyondACoreGetsTheSitesRequestAlone() {
        assertThat(SgeClaim.nativeSpec(" -l exclusive=true ", PilotNeeds.NODE)).isEqualTo("-l exclusive=true");
        assertThat(SgeClaim.nativeSpec("", PilotNeeds.NODE)).isNull();
        assertThat(SgeClaim.nativeSpec(null, PilotNeeds.NODE)).isNull();
        assertThat(SgeClaim.nativeSpec(PilotSpec.of("koala-x", "/bin/true"))).isNull();
    }

    @Test
    void onARemoteSiteTheOwnerGoesIntoSgesAccountStringRightAfterTheSitesRequest() {
        assertThat(SgeClaim.nativeSpec("-l exclusive=true", PilotNeeds.NODE.withAccount("alice")))
                .isEqualTo("-l exclusive=true -A alice");
        assertThat(SgeClaim.nativeSpec("", PilotNeeds.NODE.withAccount("alice"))).isEqualTo("-A alice");
        assertThat(SgeClaim.nativeSpec(null, PilotNeeds.NODE.withAccount("bob"))).isEqualTo("-A bob");
    }

    @Test
    void aPilotWhoseHostWasChosenAsksSgeForThatHostLast() {
        assertThat(SgeClaim.nativeSpec("-l exclusive=true", PilotNeeds.NODE.withHost("fs0-n3")))
                .isEqualTo("-l exclusive=true -l h=fs0-n3");
        assertThat(SgeClaim.nativeSpec("", PilotNeeds.NODE.withHost("fs0-n3"))).isEqualTo("-l h=fs0-n3");
        assertThat(SgeClaim.nativeSpec(null, GPU_NODE.withHost("fs0-n3")))
                .isEqualTo("-pe smp 4 -l h_vmem=8224M,gpu=1,h_rt=660 -l h=fs0-n3");
        assertThat(SgeClaim.nativeSpec(PilotSpec.of("koala-x", "/bin/true").withNativeSpec("-P koala")
                .withNeeds(GPU_NODE.withHost("fs0-n3").withAccount("alice"))))
                .isEqualTo("-P koala -A alice -pe smp 4 -l h_vmem=8224M,gpu=1,h_rt=660 -l h=fs0-n3");
    }

    /** What the agent counts a pilot's memory against when it ends: its claim as SGE limits it, read back. */
    @Test
    void theClaimReadBackIsThePilotsMemoryRoundedUpToWholeSlots() {
        assertThat(SgeRequest.parse(SgeClaim.nativeSpec("-P koala", GPU_NODE.withHost("fs0-n3"))).claimMib())
                .isEqualTo(32896L);
        assertThat(SgeRequest.parse(SgeClaim.nativeSpec(null, new PilotNeeds(3, 1000, 0, null, null, null))).claimMib())
                .isEqualTo(1002L);
        assertThat(SgeRequest.parse(SgeClaim.nativeSpec("-l exclusive=true", PilotNeeds.NODE)).claimMib()).isNull();
    }

    @Test
    void aHostOrAccountThatWouldSplitTheSpecificationIsRefused() {
        PilotSpec spec = PilotSpec.of("koala-x", "/bin/true");
        PilotSpecs.validate(spec.withNeeds(GPU_NODE.withHost("fs0-n3.cluster").withAccount("alice")));

        assertThatThrownBy(() -> PilotSpecs.validate(spec.withNeeds(PilotNeeds.NODE.withHost("fs0-n3,h_vmem=64G"))))
                .isInstanceOf(InvalidField.class).hasMessageContaining("'fs0-n3,h_vmem=64G' is not a host name");
        assertThatThrownBy(() -> PilotSpecs.validate(spec.withNeeds(PilotNeeds.NODE.withAccount("alice -l h_rt=9"))))
                .isInstanceOf(InvalidField.class).hasMessageContaining("has blanks");
    }
}
