package koala.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invariants of placement by resources on seeded random grids of unequal hosts and random requests:
 * no host is given more than it has free, and a grid of one-core hosts asked for one-core nodes is
 * decided exactly as the same grid counted in nodes.
 */
class RandomResourcesTest {
    private static final int CASES = 2_000;
    private static final Resources[] SHAPES = {new Resources(4, 8192, 0), new Resources(8, 16384, 0),
            new Resources(16, 65536, 2), new Resources(32, 262144, 4)};

    static List<PlacementPolicy> policies() {
        return CommonRulesTest.policies();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void noHostIsGivenMoreThanItHasFree(PlacementPolicy policy) {
        Random random = new Random(7);
        int placed = 0;
        for (int i = 0; i < CASES; i++) {
            List<SiteView> sites = new ArrayList<>();
            for (int s = 0, n = 1 + random.nextInt(4); s < n; s++) {
                sites.add(site("s" + s, random));
            }
            JobNeed job = job(random, sites);
            PlacementDecision d = policy.place(job, new GridView(sites, FileLocations.NONE));
            if (d instanceof PlacementDecision.Placed p) {
                placed++;
                Map<String, Resources> given = new HashMap<>();
                for (Assignment a : p.assignments()) {
                    assertThat(a.hosts()).hasSize(a.nodes());
                    Resources per = job.components().get(a.component()).perNode();
                    a.hosts().forEach(h -> given.merge(h, per, Resources::plus));
                }
                for (SiteView s : sites) {
                    for (HostView h : s.hosts()) {
                        assertThat(h.free().fits(given.getOrDefault(h.host(), Resources.NONE)))
                                .as("%s given %s", h, given.get(h.host())).isTrue();
                    }
                }
            }
        }
        assertThat(placed).isBetween(CASES / 10, CASES - CASES / 10);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void oneCoreHostsDecideAsNodes(PlacementPolicy policy) {
        Random random = new Random(11);
        for (int i = 0; i < CASES; i++) {
            List<SiteView> nodes = new ArrayList<>();
            List<SiteView> hosts = new ArrayList<>();
            for (int s = 0, n = 1 + random.nextInt(5); s < n; s++) {
                int total = 1 + random.nextInt(30);
                int idle = random.nextInt(total + 1);
                nodes.add(new SiteView("s" + s, total, idle));
                List<HostView> oneCore = new ArrayList<>();
                for (int h = 0; h < total; h++) {
                    oneCore.add(new HostView(String.format("s%d-h%02d", s, h), Resources.NODE, h < idle ? Resources.NODE : Resources.NONE));
                }
                hosts.add(new SiteView("s" + s, oneCore));
            }
            List<ComponentNeed> components = new ArrayList<>();
            boolean flexible = random.nextInt(4) == 0;
            for (int c = 0, n = flexible ? 1 : 1 + random.nextInt(4); c < n; c++) {
                String fixed = random.nextInt(4) == 0 ? "s" + random.nextInt(nodes.size()) : null;
                components.add(new ComponentNeed(c, 1 + random.nextInt(flexible ? 60 : 15), fixed, List.of()));
            }
            JobNeed job = new JobNeed("j", components, flexible);
            PlacementDecision byNodes = policy.place(job, new GridView(nodes, FileLocations.NONE));
            PlacementDecision byHosts = policy.place(job, new GridView(hosts, FileLocations.NONE));
            if (byNodes instanceof PlacementDecision.Placed p) {
                assertThat(byHosts).isInstanceOf(PlacementDecision.Placed.class);
                assertThat(((PlacementDecision.Placed) byHosts).assignments().stream()
                        .map(a -> new Assignment(a.component(), a.site(), a.nodes())).toList()).isEqualTo(p.assignments());
            } else {
                assertThat(byHosts).isInstanceOf(PlacementDecision.NotPlaced.class);
                assertThat(((PlacementDecision.NotPlaced) byHosts).reasons()).extracting(PlacementReason::kind)
                        .isEqualTo(((PlacementDecision.NotPlaced) byNodes).reasons().stream().map(PlacementReason::kind).toList());
            }
        }
    }

    private static SiteView site(String name, Random random) {
        List<HostView> hosts = new ArrayList<>();
        for (int h = 0, n = 1 + random.nextInt(12); h < n; h++) {
            Resources total = SHAPES[random.nextInt(SHAPES.length)];
            Resources free = new Resources(random.nextInt(total.cores() + 1), random.nextLong(total.memoryMiB() + 1),
                    random.nextInt(total.gpus() + 1));
            hosts.add(new HostView(name + "-h" + h, total, free));
        }
        return new SiteView(name, hosts);
    }

    private static JobNeed job(Random random, List<SiteView> sites) {
        boolean flexible = random.nextInt(4) == 0;
        List<ComponentNeed> components = new ArrayList<>();
        for (int c = 0, n = flexible ? 1 : 1 + random.nextInt(3); c < n; c++) {
            String fixed = random.nextInt(5) == 0 ? "s" + random.nextInt(sites.size()) : null;
            Resources per = new Resources(1 + random.nextInt(12), random.nextInt(3) == 0 ? 0 : 1024L * (1 + random.nextInt(48)),
                    random.nextInt(4) == 0 ? 1 + random.nextInt(2) : 0);
            components.add(new ComponentNeed(c, 1 + random.nextInt(flexible ? 20 : 6), fixed, List.of(), per));
        }
        return new JobNeed("j", components, flexible);
    }
}
