package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import koala.placement.ComponentNeed;
import koala.placement.PlacementDecision;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicies;
import koala.placement.PlacementReason;
import koala.placement.SiteView;
import org.junit.jupiter.api.Test;

/**
 * Why a queued job waits, on a grid of fs0, fs1, fs2 whose information service may not have heard
 * from every site yet. The job: 4 nodes on fs1 and 12 anywhere, placed by Worst-Fit.
 */
class WaitingReasonTest {
    private static final List<String> SITES = List.of("fs0", "fs1", "fs2");
    private static final JobNeed JOB = new JobNeed("7", List.of(new ComponentNeed(0, 4, "fs1", List.of()),
            new ComponentNeed(1, 12, null, List.of())), false);

    private static List<PlacementReason> reasons(SiteView... sites) {
        PlacementDecision decision = PlacementPolicies.byName("worst-fit").place(JOB, new GridView(List.of(sites),
                FileLocations.NONE));
        return ((PlacementDecision.NotPlaced) decision).reasons();
    }

    @Test
    void whenOnlyTheFirstSiteIsUnheardThePolicysReasonStandsAndNamesIt() {
        // fs1 has 1 idle of 8; fs2 has 8 idle; fs0 (16 nodes) is not in the view yet, so the policy
        // believes 12 nodes fit no cluster: the note says why that may change
        List<PlacementReason> reasons = reasons(new SiteView("fs1", 8, 1), new SiteView("fs2", 8, 8));

        assertThat(Scheduler.waitingReason(reasons, List.of("fs0"), SITES.size())).isEqualTo(
                "component 0 needs 4 nodes on fs1, which has 1 idle; component 1 needs 12 nodes on one cluster, "
                        + "more than any cluster has (largest: fs1 with 8) (no information yet from fs0)");
    }

    @Test
    void whenEverySiteIsHeardFromThePolicysReasonIsAllThereIs() {
        List<PlacementReason> reasons = reasons(new SiteView("fs0", 16, 0), new SiteView("fs1", 8, 1),
                new SiteView("fs2", 8, 8));

        assertThat(Scheduler.waitingReason(reasons, List.of(), SITES.size())).isEqualTo(
                "component 0 needs 4 nodes on fs1, which has 1 idle; component 1 needs 12 nodes on one cluster, "
                        + "most idle is 8 on fs2");
    }

    @Test
    void whenNoSiteIsHeardFromThereIsNoInformationYet() {
        assertThat(Scheduler.waitingReason(reasons(), SITES, SITES.size())).isEqualTo("no site information yet");
    }
}
