package koala.sge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The memory a job claims, from a pilot's native specification or qacct's {@code category}. */
class SgeRequestTest {
    @Test
    void aNodeOf8CoresAnd4GibClaimsH_vmemPerSlotTimesItsSlots() {
        SgeRequest request = SgeRequest.parse("-pe smp 8 -l h_vmem=512M,gpu=1,h_rt=3600 -l h=fs0-n13");

        assertThat(request).isEqualTo(new SgeRequest(512L, 8));
        assertThat(request.claimMib()).isEqualTo(4096L);
    }

    @Test
    void qacctsCategoryReadsAlike() {
        assertThat(SgeRequest.parse("-l h_vmem=512M,hostname=fs0-n1 -pe smp 2").claimMib()).isEqualTo(1024L);
        assertThat(SgeRequest.parse("-q fs0.q@fs0-n3,fs0.q@fs0-n4 -l gpu=1,h_vmem=256M -pe mpi 3").claimMib())
                .isEqualTo(768L);
    }

    @Test
    void withoutH_vmemThereIsNoClaim() {
        assertThat(SgeRequest.parse("-l exclusive=true").claimMib()).isNull();
        assertThat(SgeRequest.parse(null).claimMib()).isNull();
        assertThat(SgeRequest.parse("-soft -l h_vmem=1G -hard -l h=fs0-n1").claimMib()).isNull();
    }

    @Test
    void aRangeOfSlotsCountsItsLowerBound() {
        assertThat(SgeRequest.parse("-pe smp 2-4 -l h_vmem=1G").claimMib()).isEqualTo(2048L);
        assertThat(SgeRequest.parse("-l h_vmem=1G").withSlots(3).claimMib()).isEqualTo(3072L);
    }
}
