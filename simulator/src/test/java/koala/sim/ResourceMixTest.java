package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import koala.placement.Resources;
import org.junit.jupiter.api.Test;

/** The default mix's demand and arrival rate, worked by hand. */
class ResourceMixTest {
    @Test
    void theRateOffersTheLoadOfTheResourceTheMixAsksMostOf() {
        // per job on average: small 0.45 · 4.5 nodes of (1 core, 2G); memory 0.20 · 2.5 of (2, 12G);
        // gpu 0.15 · 1.5 of (4, 16G, 1); mpi 0.20 · 2.5 components · 3 nodes of (2, 4G):
        // cores 2.025 + 1 + 0.9 + 3 = 6.925; memory 4.05 + 6 + 3.6 + 6 = 19.65G; GPUs 0.225; times 3600 s
        double[] d = ResourceMix.DEFAULT.meanDemandSeconds();
        assertThat(d[0]).isCloseTo(6.925 * 3600, within(1e-6));
        assertThat(d[1]).isCloseTo(19.65 * 1024 * 3600, within(1e-3));
        assertThat(d[2]).isCloseTo(0.225 * 3600, within(1e-6));
        // on 704 cores, 1920G and 32 GPUs memory is the busiest (19.65/1920 > 6.925/704 > 0.225/32):
        // load 0.9 is 0.9 · 1920 / 19.65 = 87.94 jobs an hour
        Resources grid = new Resources(704, 1920 * 1024L, 32);
        double rate = ResourceMix.DEFAULT.arrivalRate(0.9, grid);
        assertThat(rate * 3600).isCloseTo(0.9 * 1920 / 19.65, within(1e-9));
        double[] offered = ResourceMix.DEFAULT.offered(rate, grid);
        assertThat(offered[1]).isCloseTo(0.9, within(1e-12));
        assertThat(offered[0]).isCloseTo(rate * 6.925 * 3600 / 704, within(1e-12));
    }

    @Test
    void aSeedGivesTheSameJobsAtEveryLoadOnlyCloserTogether() {
        List<ResourceJob> slow = ResourceMix.DEFAULT.generate(200, 0.01, 7);
        List<ResourceJob> fast = ResourceMix.DEFAULT.generate(200, 0.02, 7);
        for (int i = 0; i < slow.size(); i++) {
            assertThat(fast.get(i).parts()).isEqualTo(slow.get(i).parts());
            assertThat(fast.get(i).runtime()).isEqualTo(slow.get(i).runtime());
            assertThat(fast.get(i).arrival().toMillis()).isCloseTo(slow.get(i).arrival().toMillis() / 2, within(1L));
        }
        // a rate of 0: every job at once
        assertThat(ResourceMix.DEFAULT.generate(50, 0, 7)).allMatch(j -> j.arrival().isZero());
        // the mpi class is the co-allocated one: 2 or 3 components
        assertThat(slow).filteredOn(j -> j.kind().equals("mpi")).isNotEmpty()
                .allMatch(j -> j.parts().size() >= 2 && j.parts().size() <= 3);
    }
}
