package koala.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invariants on many seeded random jobs and grids: a placement never overbooks a site, gives every
 * component its nodes where the rules allow, and the same input gives the same decision.
 */
class RandomJobsTest {
    private static final int CASES = 2_000;

    static List<PlacementPolicy> policies() {
        return CommonRulesTest.policies();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void placementsRespectTheRulesAndAreDeterministic(PlacementPolicy policy) {
        Random random = new Random(42);
        int placed = 0;
        for (int i = 0; i < CASES; i++) {
            List<SiteView> sites = sites(random);
            JobNeed job = job(random, sites);
            GridView grid = new GridView(sites, FileLocations.NONE);
            PlacementDecision decision = policy.place(job, grid);
            List<SiteView> shuffled = new ArrayList<>(sites);
            Collections.shuffle(shuffled, random);
            assertThat(policy.place(job, new GridView(shuffled, FileLocations.NONE))).isEqualTo(decision);
            if (decision instanceof PlacementDecision.Placed p) {
                checkPlaced(job, sites, p.assignments(), policy);
                placed++;
            } else {
                assertThat(((PlacementDecision.NotPlaced) decision).reasons()).isNotEmpty();
            }
        }
        assertThat(placed).as("a fair share of the random jobs is placed").isBetween(CASES / 4, CASES - CASES / 10);
    }

    private static void checkPlaced(JobNeed job, List<SiteView> sites, List<Assignment> assignments,
                                    PlacementPolicy policy) {
        Map<String, Integer> taken = new HashMap<>();
        for (Assignment a : assignments) {
            assertThat(a.nodes()).isPositive();
            taken.merge(a.site(), a.nodes(), Integer::sum);
        }
        for (SiteView s : sites) {
            assertThat(taken.getOrDefault(s.site(), 0)).isLessThanOrEqualTo(Math.max(0, s.idleNodes()));
        }
        assertThat(assignments).isSortedAccordingTo((a, b) -> Integer.compare(a.component(), b.component()));
        for (ComponentNeed c : job.components()) {
            List<Assignment> mine = assignments.stream().filter(a -> a.component() == c.index()).toList();
            assertThat(mine.stream().mapToInt(Assignment::nodes).sum()).isEqualTo(c.nodes());
            Set<String> distinct = new HashSet<>(mine.stream().map(Assignment::site).toList());
            assertThat(distinct).hasSize(mine.size());
            boolean splits = job.flexible() && c.fixedSite() == null && policy instanceof FlexibleClusterMinimization;
            if (!splits) {
                assertThat(mine).hasSize(1);
            }
            if (c.fixedSite() != null) {
                assertThat(mine.get(0).site()).isEqualTo(c.fixedSite());
            }
        }
    }

    private static List<SiteView> sites(Random random) {
        int n = 1 + random.nextInt(6);
        List<SiteView> sites = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int total = 4 + random.nextInt(29);
            sites.add(new SiteView("s" + i, total, random.nextInt(total + 1)));
        }
        return sites;
    }

    private static JobNeed job(Random random, List<SiteView> sites) {
        boolean flexible = random.nextInt(4) == 0;
        int count = flexible ? 1 : 1 + random.nextInt(4);
        List<ComponentNeed> components = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String fixedSite = random.nextInt(4) == 0 ? "s" + random.nextInt(sites.size()) : null;
            int nodes = 1 + random.nextInt(flexible ? 40 : 12);
            components.add(new ComponentNeed(i, nodes, fixedSite, List.of()));
        }
        return new JobNeed("r" + random.nextInt(), components, flexible);
    }
}
