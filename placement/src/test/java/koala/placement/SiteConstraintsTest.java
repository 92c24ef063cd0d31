package koala.placement;

import static koala.placement.Fixtures.EXAMPLE;
import static koala.placement.Fixtures.grid;
import static koala.placement.Fixtures.rigid;
import static koala.placement.Fixtures.site;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import koala.constraints.Constraint;
import koala.constraints.Container;
import koala.constraints.Group;
import koala.constraints.Tags;
import org.junit.jupiter.api.Test;

/**
 * Constraints over sites, worked on the example grid: fs0 10 idle of 16, fs1 8 of 8, fs2 3 of 8, all
 * on one network "wan" unless said. Job 5 has components 0 (tagged a) and 1 (tagged b).
 */
class SiteConstraintsTest {
    private static final Tags A = Tags.of("job=5", "component=0", "a");
    private static final Tags B = Tags.of("job=5", "component=1", "b");
    private static final Map<Integer, Tags> TAGS = Map.of(0, A, 1, B);

    private static SiteConstraints constrained(List<Constraint> own, List<Container> running, List<Constraint> inForce) {
        return new SiteConstraints(new WorstFit(), s -> "wan", TAGS, own, running, inForce);
    }

    @Test
    void twoComponentsOnDifferentSites() {
        // Worst-Fit alone: 2 + 2 nodes both on fs0 (10 idle, then 8, tied with fs1's 8 and first by name).
        // Kept apart: component 0 takes fs0, then fs0 holds an a, so component 1 goes to fs1.
        Constraint apart = new Constraint.AntiAffinity(A, Tags.of("job=5", "b"), Group.SITE, true);

        assertThat(new WorstFit().place(rigid(2, 2), EXAMPLE)).isEqualTo(new PlacementDecision.Placed(List.of(
                new Assignment(0, "fs0", 2), new Assignment(1, "fs0", 2))));
        assertThat(constrained(List.of(apart), List.of(), List.of()).place(rigid(2, 2), EXAMPLE))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 2), new Assignment(1, "fs1", 2))));
    }

    @Test
    void aHardConstraintNoSiteKeepsMakesTheJobWaitSayingWhy() {
        Constraint apart = new Constraint.AntiAffinity(A, Tags.of("job=5", "b"), Group.SITE, true);

        PlacementDecision d = constrained(List.of(apart), List.of(), List.of()).place(rigid(4, 4), grid(site("fs0", 16, 10)));

        assertThat(d).isEqualTo(new PlacementDecision.NotPlaced(List.of(new PlacementReason(1, PlacementReason.Kind.HARD_CONSTRAINT,
                "component 1 (4 nodes) may go on no site: fs0: hard anti-affinity of {a, component=0, job=5} to "
                        + "{b, job=5} over site (site fs0 holds 4 containers tagged {a, component=0, job=5}, which keeps {b, job=5} out of its "
                        + "site)"))));
    }

    @Test
    void aSoftOneIsBrokenOnlyWhenNothingElseFitsAndSaysSo() {
        Constraint apart = new Constraint.AntiAffinity(A, Tags.of("job=5", "b"), Group.SITE, false);

        PlacementDecision.Placed alone = (PlacementDecision.Placed) constrained(List.of(apart), List.of(), List.of())
                .place(rigid(4, 4), grid(site("fs0", 16, 10)));
        // fs1 keeps it but has 3 idle: component 1 (4 nodes) goes back to fs0, the constraint broken and said
        PlacementDecision.Placed tight = (PlacementDecision.Placed) constrained(List.of(apart), List.of(), List.of())
                .place(rigid(4, 4), grid(site("fs0", 16, 10), site("fs1", 8, 3)));

        assertThat(alone.assignments()).containsExactly(new Assignment(0, "fs0", 4), new Assignment(1, "fs0", 4));
        assertThat(tight.assignments()).containsExactly(new Assignment(0, "fs0", 4), new Assignment(1, "fs0", 4));
        assertThat(tight.softViolations()).containsExactly("component 1 on fs0: soft anti-affinity of {a, "
                + "component=0, job=5} to {b, job=5} over site broken (site fs0 holds 4 containers tagged {a, "
                + "component=0, job=5}, which keeps {b, job=5} out of its site)");
    }

    @Test
    void runningWorkCountsAndItsConstraintsHold() {
        // job 3 runs 2 nodes on fs0 and keeps every b-tagged node of job 5 off its site (hard, in force):
        // both of job 5's components would take fs0 by Worst-Fit; component 0 still may, component 1 goes to fs1.
        List<Container> running = List.of(new Container("3.1", Tags.of("job=3", "noisy"), "fs0"),
                new Container("3.2", Tags.of("job=3", "noisy"), "fs0"));
        Constraint keepOff = new Constraint.AntiAffinity(Tags.of("job=3"), Tags.of("b"), Group.SITE, true);

        assertThat(constrained(List.of(), running, List.of(keepOff)).place(rigid(2, 2), EXAMPLE))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 2), new Assignment(1, "fs1", 2))));
    }

    @Test
    void anAffinityToALaterComponentPlacesThatOneFirst() {
        // component 0 must share a network with component 1: 1 goes first (fs0, on network n0), then 0 may
        // only use n0's sites; fs1 (n1) has the most idle after fs0 took 4, but is ruled out.
        Constraint near = new Constraint.Affinity(A, Tags.of("job=5", "b"), Group.NETWORK, true);
        SiteConstraints policy = new SiteConstraints(new WorstFit(), s -> s.equals("fs1") ? "n1" : "n0", TAGS,
                List.of(near), List.of(), List.of());

        assertThat(policy.place(rigid(3, 4), EXAMPLE)).isEqualTo(new PlacementDecision.Placed(List.of(
                new Assignment(0, "fs0", 3), new Assignment(1, "fs0", 4))));
    }

    @Test
    void anUpperBoundFinerThanTheSiteIsKeptOverTheSite() {
        // at most 2 of job 5's a nodes per host: KOALA does not choose hosts, so at most 2 per site
        Constraint two = new Constraint.Cardinality(A, Tags.of("job=5", "a"), Group.HOST, 0, 2, true);

        PlacementDecision d = constrained(List.of(two), List.of(), List.of()).place(rigid(3), EXAMPLE);

        assertThat(d).isInstanceOf(PlacementDecision.NotPlaced.class);
        assertThat(((PlacementDecision.NotPlaced) d).reasons().get(0).kind()).isEqualTo(PlacementReason.Kind.HARD_CONSTRAINT);
        assertThat(constrained(List.of(two), List.of(), List.of()).place(rigid(2), EXAMPLE))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 2))));
    }

    /**
     * A flexible job of 7 nodes tagged a, at most 2 a's per site: a rigid component would be ruled out of
     * every site (none takes 7 without a third a), a flexible one is split, each site offered as many of
     * its idle nodes as fit there: Flexible Cluster Minimization takes fs0 2, fs1 2, fs2 2 (6 in all), so 7
     * is not placed and {@link SiteConstraints#room} says 6 fit, naming the constraint site by site.
     */
    @Test
    void aFlexibleJobIsSplitAsFarAsEachSiteKeepsItsHardConstraints() {
        Constraint twoPerSite = new Constraint.Cardinality(A, Tags.of("job=5", "a"), Group.SITE, 0, 2, true);
        SiteConstraints kept = new SiteConstraints(new FlexibleClusterMinimization(), s -> "wan", Map.of(0, A),
                List.of(twoPerSite), List.of(), List.of());
        ComponentNeed seven = new ComponentNeed(0, 7, null, List.of());

        SiteConstraints.Room room = kept.room(seven, EXAMPLE);
        PlacementDecision six = kept.place(new JobNeed("5", List.of(new ComponentNeed(0, 6, null, List.of())), true), EXAMPLE);

        assertThat(room.nodes()).isEqualTo(6);
        assertThat(room.limit().kind()).isEqualTo(PlacementReason.Kind.HARD_CONSTRAINT);
        assertThat(room.limit().text()).startsWith("the sites may take 6 more, not 7 keeping the hard constraints: "
                + "fs0 (2 of 10 idle): hard cardinality 0..2 of {a, job=5} per site of {a, component=0, job=5}");
        assertThat(six).isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 2), new Assignment(0, "fs1", 2),
                new Assignment(0, "fs2", 2))));
        assertThat(kept.place(new JobNeed("5", List.of(seven), true), EXAMPLE)).isInstanceOf(PlacementDecision.NotPlaced.class);
        assertThat(kept.room(new ComponentNeed(0, 2, null, List.of()), EXAMPLE).limit()).as("2 fit: nothing to say")
                .isNull();
    }

    /**
     * On hosts: fs0's 4 idle hosts n1..n4, racks r1 (n1, n2) and r2 (n3, n4); fs1 has 8 idle nodes
     * whose hosts the view does not know. A constraint over the rack or the host is now kept per rack
     * or host, and each node is pinned to its host.
     */
    private static final GridView RACKED = grid(new SiteView("fs0", 16, 4, Map.of("n1", 1, "n2", 1, "n3", 1, "n4", 1)),
            site("fs1", 8, 8));
    private static final SiteConstraints.Hosts RACKS = new SiteConstraints.Hosts(Map.of(),
            (site, host) -> Map.of(Group.of("rack"), host.compareTo("n3") < 0 ? "r1" : "r2"));

    @Test
    void twoComponentsInDifferentRacksOfOneSiteArePinnedToTheirHosts() {
        // Worst-Fit puts both 1-node components on fs1 (8 idle); fixed on fs0, they must be in racks r1 and r2
        Constraint apart = new Constraint.AntiAffinity(A, Tags.of("job=5", "b"), Group.of("rack"), true);
        JobNeed both = new JobNeed("5", List.of(Fixtures.fixed(0, 1, "fs0"), Fixtures.fixed(1, 1, "fs0")), false);

        assertThat(constrained(List.of(apart), List.of(), List.of()).place(both, RACKED))
                .as("kept over sites, fs0 cannot take both").isInstanceOf(PlacementDecision.NotPlaced.class);
        assertThat(constrained(List.of(apart), List.of(), List.of()).onHosts(RACKS).place(both, RACKED))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 1, List.of("n1")),
                        new Assignment(1, "fs0", 1, List.of("n3")))));
    }

    /**
     * By resources: fs0 has a small host (n1: 4 cores, 8G) and a GPU host (n2: 16 cores, 64G, 2 GPUs);
     * fs1 two hosts of 8 cores and 16G (m1, m2). Component 0 (a, 1 node of 8 cores and 32G) fits only on
     * fs0's n2; component 1 (b, 2 nodes of 8 cores and 8G) must keep off a's site, so it goes to fs1, a
     * node on each host. Without the constraint Worst-Fit would have put it on fs0 (24 cores left
     * there pooled, against fs1's 16).
     */
    @Test
    void constraintsOverSitesPlaceByResourcesHostByHost() {
        GridView grid = grid(new SiteView("fs0", List.of(host("n1", 4, 8, 0), host("n2", 16, 64, 2))),
                new SiteView("fs1", List.of(host("m1", 8, 16, 0), host("m2", 8, 16, 0))));
        JobNeed job = new JobNeed("5", List.of(new ComponentNeed(0, 1, null, List.of(), new Resources(8, 32768, 0)),
                new ComponentNeed(1, 2, null, List.of(), new Resources(8, 8192, 0))), false);
        Constraint apart = new Constraint.AntiAffinity(A, Tags.of("job=5", "b"), Group.SITE, true);

        assertThat(constrained(List.of(apart), List.of(), List.of()).place(job, grid))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 1, List.of("n2")),
                        new Assignment(1, "fs1", 2, List.of("m1", "m2")))));
    }

    /**
     * By resources, on hosts: at most one a-node per host, 2 nodes of 8 cores on fs0's hosts n1 (4 cores,
     * idle), n2 and n3 (16 cores each). n1 is idle but a node does not fit there: n2 and n3.
     */
    @Test
    void aHostIsChosenOnlyWhereTheNodeFits() {
        GridView grid = grid(new SiteView("fs0", List.of(host("n1", 4, 8, 0), host("n2", 16, 64, 0),
                host("n3", 16, 64, 0))));
        JobNeed job = new JobNeed("5", List.of(new ComponentNeed(0, 2, null, List.of(), new Resources(8, 0, 0))), false);
        Constraint one = new Constraint.Cardinality(A, Tags.of("job=5", "a"), Group.HOST, 0, 1, true);

        assertThat(constrained(List.of(one), List.of(), List.of()).onHosts(RACKS).place(job, grid))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 2, List.of("n2", "n3")))));
    }

    private static HostView host(String name, int cores, int memoryGib, int gpus) {
        Resources all = new Resources(cores, memoryGib * 1024L, gpus);
        return new HostView(name, all, all);
    }

    @Test
    void atMostTwoPerHostIsKeptPerHostNotPerSite() {
        // 3 a-nodes on fs0, whose hosts each have 2 idle nodes: 2 on n1, 1 on n2 (at most 2 per host);
        // kept over the site, no site takes 3
        GridView twoEach = grid(new SiteView("fs0", 16, 4, Map.of("n1", 2, "n2", 2)));
        Constraint two = new Constraint.Cardinality(A, Tags.of("job=5", "a"), Group.HOST, 0, 2, true);

        assertThat(constrained(List.of(two), List.of(), List.of()).place(rigid(3), twoEach))
                .isInstanceOf(PlacementDecision.NotPlaced.class);
        assertThat(constrained(List.of(two), List.of(), List.of()).onHosts(RACKS).place(rigid(3), twoEach))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 3, List.of("n1", "n1", "n2")))));
    }

    @Test
    void runningWorkOnAKnownHostKeepsOthersOffThatHostOnly() {
        // job 3's node 3.1 runs on n1 and keeps b nodes off its host: component 1 (b) goes to n2, not n1
        List<Container> running = List.of(new Container("3.1", Tags.of("job=3"), "fs0"));
        Constraint keepOff = new Constraint.AntiAffinity(Tags.of("job=3"), Tags.of("b"), Group.HOST, true);
        SiteConstraints.Hosts at = new SiteConstraints.Hosts(Map.of("3.1", "n1"), RACKS.groupsOf());
        JobNeed one = new JobNeed("5", List.of(Fixtures.fixed(1, 1, "fs0")), false);

        assertThat(constrained(List.of(), running, List.of(keepOff)).onHosts(at).place(one, RACKED))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(1, "fs0", 1, List.of("n2")))));
    }

    @Test
    void constraintsOverSitesAloneLeaveTheHostsToSge() {
        Constraint apart = new Constraint.AntiAffinity(A, Tags.of("job=5", "b"), Group.SITE, true);

        assertThat(constrained(List.of(apart), List.of(), List.of()).onHosts(RACKS).place(rigid(1, 1), RACKED))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs1", 1), new Assignment(1, "fs0", 1))));
    }

    @Test
    void aComponentsNodesKeepToOneRackLeavingTheOtherWhole() {
        // 2 a-nodes and 2 b-nodes, a kept out of b's racks: a takes n1 and n2 (rack r1, kept together, not
        // n1 and n3 by name), so b has r2 whole
        Constraint apart = new Constraint.AntiAffinity(A, Tags.of("job=5", "b"), Group.of("rack"), true);
        JobNeed both = new JobNeed("5", List.of(Fixtures.fixed(0, 2, "fs0"), Fixtures.fixed(1, 2, "fs0")), false);
        GridView fs0 = grid(new SiteView("fs0", 16, 4, Map.of("n1", 1, "n3", 1, "n2", 1, "n4", 1)));

        assertThat(constrained(List.of(apart), List.of(), List.of()).onHosts(RACKS).place(both, fs0))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 2, List.of("n1", "n2")),
                        new Assignment(1, "fs0", 2, List.of("n3", "n4")))));
    }
}
