package koala.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import koala.placement.ComponentNeed;
import koala.placement.JobNeed;
import koala.placement.SiteView;
import org.junit.jupiter.api.Test;

class PlacementWorkloadTest {
    private final PlacementWorkload workload = PlacementWorkload.generate(100, 10_000, PlacementWorkload.SEED);

    @Test
    void theSameSeedGivesTheSameWorkload() {
        assertThat(PlacementWorkload.generate(100, 10_000, PlacementWorkload.SEED)).isEqualTo(workload);
        assertThat(PlacementWorkload.generate(100, 10_000, 7)).isNotEqualTo(workload);
    }

    @Test
    void gridHasTheAskedSitesOf500NodesWithVariedIdleCounts() {
        List<SiteView> sites = workload.grid().sites();
        assertThat(sites).hasSize(100).allMatch(s -> s.totalNodes() == 500 && s.idleNodes() >= 0 && s.idleNodes() <= 500);
        assertThat(sites.stream().map(SiteView::idleNodes).distinct().count()).isGreaterThan(50);
        assertThat(workload.grid().files().files()).hasSize(PlacementWorkload.FILES);
    }

    @Test
    void queueMixesEveryJobType() {
        List<JobNeed> jobs = workload.jobs();
        assertThat(jobs).hasSize(10_000);
        long flexible = jobs.stream().filter(JobNeed::flexible).count();
        long fixed = jobs.stream().filter(j -> !j.flexible() && pinned(j) == j.components().size()).count();
        long nonFixed = jobs.stream().filter(j -> !j.flexible() && pinned(j) == 0).count();
        long semiFixed = jobs.size() - flexible - fixed - nonFixed;
        // 25% flexible, 40% non-fixed, 20% semi-fixed, 15% fixed; one-component "semi-fixed" draws do not exist
        assertThat(flexible).isBetween(2_300L, 2_700L);
        assertThat(nonFixed).isBetween(3_700L, 4_300L);
        assertThat(semiFixed).isBetween(1_800L, 2_200L);
        assertThat(fixed).isBetween(1_300L, 1_700L);
    }

    @Test
    void componentsAreOneToFourOfOneToSixtyFourNodesOnExistingSites() {
        Set<String> names = workload.grid().sites().stream().map(SiteView::site).collect(Collectors.toSet());
        for (JobNeed job : workload.jobs()) {
            assertThat(job.components().size()).isBetween(1, 4);
            for (ComponentNeed c : job.components()) {
                assertThat(c.nodes()).isBetween(1, job.flexible() ? 256 : 64);
                assertThat(c.fixedSite() == null || names.contains(c.fixedSite())).isTrue();
            }
        }
        long withFiles = workload.jobs().stream().flatMap(j -> j.components().stream())
                .filter(c -> !c.inputFiles().isEmpty()).count();
        assertThat(withFiles).isPositive();
    }

    private static long pinned(JobNeed job) {
        return job.components().stream().filter(c -> c.fixedSite() != null).count();
    }
}
