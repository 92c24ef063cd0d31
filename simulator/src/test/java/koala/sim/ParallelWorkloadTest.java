package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ParallelWorkloadTest {
    @Test
    void theLoadSetsTheArrivalRate() {
        // E[size] = (1 + 2 + 4 + 8 + 16) / 5 = 6.2 nodes, E[runtime] = 900 s: 5,580 node-seconds a job.
        // Load 0.5 of 32 nodes is 16 node-seconds a second: 16 / 5,580 = 0.0028674 jobs a second
        assertThat(ParallelWorkload.DEFAULT.sizes().mean()).isCloseTo(6.2, within(1e-12));
        assertThat(ParallelWorkload.DEFAULT.arrivalRate(0.5, 32)).isCloseTo(16 / 5580.0, within(1e-12));
        // weights: (1·3 + 16·1) / 4 = 4.75
        assertThat(ParallelWorkload.Sizes.parse("1:3, 16:1").mean()).isCloseTo(4.75, within(1e-12));
    }

    @Test
    void aWorkloadOffersTheLoadItWasMadeFor() {
        List<ParallelJob> jobs = ParallelWorkload.DEFAULT.atLoad(0.5, 32, 20_000, 7);
        double work = jobs.stream().mapToDouble(j -> j.size() * j.runtime().toMillis() / 1000.0).sum();
        double span = jobs.get(jobs.size() - 1).arrival().toMillis() / 1000.0;
        assertThat(work / span / 32).isCloseTo(0.5, within(0.03));
        assertThat(jobs).allMatch(j -> List.of(1, 2, 4, 8, 16).contains(j.size()));
    }

    @Test
    void oneSeedGivesTheSameJobsAtEveryLoadOnlyCloserTogether() {
        List<ParallelJob> light = ParallelWorkload.DEFAULT.atLoad(0.3, 32, 100, 3);
        List<ParallelJob> heavy = ParallelWorkload.DEFAULT.atLoad(0.9, 32, 100, 3);
        assertThat(ParallelWorkload.DEFAULT.atLoad(0.3, 32, 100, 3)).isEqualTo(light);
        for (int i = 0; i < light.size(); i++) {
            assertThat(heavy.get(i).size()).isEqualTo(light.get(i).size());
            assertThat(heavy.get(i).runtime()).isEqualTo(light.get(i).runtime());
            // three times the rate: a third of the time from the start (to the millisecond)
            assertThat(heavy.get(i).arrival().toMillis()).isCloseTo(light.get(i).arrival().toMillis() / 3, within(1L));
        }
        assertThat(ParallelWorkload.DEFAULT.atLoad(0.3, 32, 100, 4)).isNotEqualTo(light);
    }

    @Test
    void lognormalRuntimesKeepTheirMean() {
        ParallelWorkload w = new ParallelWorkload(ParallelWorkload.Sizes.parse("4"),
                ParallelWorkload.Runtimes.parse("lognormal:600:1"));
        double mean = w.generate(50_000, 1, 1).stream().mapToDouble(j -> j.runtime().toMillis() / 1000.0).average()
                .orElseThrow();
        assertThat(mean).isCloseTo(600, within(20.0));
        assertThat(w.runtime().spec()).isEqualTo("lognormal:600:1");
    }

    @Test
    void badSpecificationsSayWhatToGive() {
        assertThatThrownBy(() -> ParallelWorkload.Sizes.parse("1,two")).hasMessageContaining("SIZE or SIZE:WEIGHT");
        assertThatThrownBy(() -> ParallelWorkload.Sizes.parse("0,4")).hasMessageContaining("at least 1 node");
        assertThatThrownBy(() -> ParallelWorkload.Runtimes.parse("uniform:5")).hasMessageContaining("exponential:MEAN");
        assertThatThrownBy(() -> ParallelWorkload.DEFAULT.arrivalRate(0, 32)).hasMessageContaining("positive load");
    }
}
