package koala.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import koala.placement.PlacementReason.Kind;
import org.junit.jupiter.api.Test;

/**
 * Worked examples of placement by resources on the unequal grid of the issue: fs0 with 12 hosts of
 * 4 cores and 8G ({@code fs0-n00}..{@code fs0-n11}) and 4 hosts of 16 cores, 64G and 2 GPUs
 * ({@code fs0-n12}..{@code fs0-n15}); fs1 with 8 hosts of 8 cores and 16G ({@code fs1-n00}..).
 * Every host idle unless a test says otherwise.
 */
class ResourcePlacementTest {
    static final Resources SMALL = new Resources(4, 8 * 1024, 0);
    static final Resources BIG = new Resources(16, 64 * 1024, 2);
    static final Resources MEDIUM = new Resources(8, 16 * 1024, 0);

    private final PlacementPolicy worstFit = new WorstFit();
    private final PlacementPolicy clusterMinimization = new ClusterMinimization();

    static Resources ask(int cores, int memoryGiB, int gpus) {
        return new Resources(cores, memoryGiB * 1024L, gpus);
    }

    static List<HostView> hosts(String site, int from, int count, Resources shape) {
        List<HostView> hosts = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            hosts.add(new HostView(String.format("%s-n%02d", site, i), shape, shape));
        }
        return hosts;
    }

    static SiteView fs0() {
        List<HostView> hosts = new ArrayList<>(hosts("fs0", 0, 12, SMALL));
        hosts.addAll(hosts("fs0", 12, 4, BIG));
        return new SiteView("fs0", hosts);
    }

    static SiteView fs1() {
        return new SiteView("fs1", hosts("fs1", 0, 8, MEDIUM));
    }

    static GridView grid(SiteView... sites) {
        return new GridView(List.of(sites), FileLocations.NONE);
    }

    static final GridView ISSUE = grid(fs0(), fs1());

    static ComponentNeed need(int index, int nodes, Resources perNode) {
        return new ComponentNeed(index, nodes, null, List.of(), perNode);
    }

    static JobNeed job(ComponentNeed... components) {
        return new JobNeed("j", List.of(components), false);
    }

    static List<String> repeat(String host, int times) {
        return Collections.nCopies(times, host);
    }

    @Test
    void aViewOfHostsCountsTodaysNodesAsCores() {
        assertThat(fs0().totalNodes()).isEqualTo(12 * 4 + 4 * 16);
        assertThat(fs0().idleNodes()).isEqualTo(112);
        assertThat(fs1().idleHosts()).containsEntry("fs1-n03", 8);
    }

    /**
     * Host a of 16 cores and 32G, host b of 4 cores and 64G. Component 0 (4 nodes of 1 core and 8G) goes
     * first, being the larger, and best fit on memory puts all four on a (32G is less than 64G), leaving
     * it no memory: component 1 (1 node of 16 cores and 16G), which only a holds, would not fit. Tried
     * again with its largest node first, the job fits: component 1 on a, component 0 on b.
     */
    @Test
    void aJobThatDoesNotFitLargestFirstIsTriedWithItsLargestNodesFirst() {
        GridView grid = grid(new SiteView("fs9", List.of(new HostView("fs9-a", ask(16, 32, 0), ask(16, 32, 0)),
                new HostView("fs9-b", ask(4, 64, 0), ask(4, 64, 0)))));
        JobNeed job = job(need(0, 4, ask(1, 8, 0)), need(1, 1, ask(16, 16, 0)));
        PlacementDecision.Placed expected = new PlacementDecision.Placed(List.of(
                new Assignment(0, "fs9", 4, repeat("fs9-b", 4)), new Assignment(1, "fs9", 1, List.of("fs9-a"))));
        assertThat(worstFit.place(job, grid)).isEqualTo(expected);
        assertThat(clusterMinimization.place(job, grid)).isEqualTo(expected);
    }

    @Test
    void memoryHeavyNodesLandOnlyOnTheBigHosts() {
        // 8 cores and 32G: a small host has 4 cores, an fs1 host 16G; a big host holds 2 (16/8, 64/32).
        // fs0 holds 8 such nodes, fs1 none. Best fit on memory (32G of fs0's 352G beats 8 of its 112
        // cores): the big hosts all have 64G free, so the first by name takes both nodes.
        assertThat(worstFit.place(job(need(0, 2, ask(8, 32, 0))), ISSUE)).isEqualTo(new PlacementDecision.Placed(
                List.of(new Assignment(0, "fs0", 2, repeat("fs0-n12", 2)))));
    }

    @Test
    void gpuNodesGoOnlyWhereTheGpusAre() {
        // 4 cores and 1 GPU: fs0's big hosts hold 2 each (2 GPUs), nothing else holds one. Best fit on
        // GPUs (1 of 8 beats 4 of 112 cores) fills fs0-n12 before fs0-n13.
        assertThat(worstFit.place(job(need(0, 3, ask(4, 0, 1))), ISSUE)).isEqualTo(new PlacementDecision.Placed(
                List.of(new Assignment(0, "fs0", 3, List.of("fs0-n12", "fs0-n12", "fs0-n13")))));
    }

    @Test
    void smallNodesFillTheSmallHostsAndKeepTheBigOnesWhole() {
        // 1 core: fs0 ranks 112 (its idle cores), fs1 64, so Worst-Fit takes fs0 as it would by idle nodes.
        // Best fit on cores: the 4-core hosts have the least free, fs0-n00 first by name.
        assertThat(worstFit.place(job(need(0, 6, Resources.NODE)), ISSUE)).isEqualTo(new PlacementDecision.Placed(
                List.of(new Assignment(0, "fs0", 6, List.of("fs0-n00", "fs0-n00", "fs0-n00", "fs0-n00", "fs0-n01", "fs0-n01")))));
    }

    @Test
    void worstFitRanksSitesByTheirScarcestResourceAndTakesTheFirstThatHoldsTheNodes() {
        // 8 cores and 16G. fs0 pooled: 112 cores / 8 = 14, 352G / 16 = 22: ranks 14 (cores are its
        // scarce resource for this request); fs1: 64 / 8 = 8, 128G / 16 = 8: ranks 8. fs0 holds 8 such
        // nodes host by host (its big hosts, 2 each), so 3 go there, by best fit on cores.
        assertThat(worstFit.place(job(need(0, 3, MEDIUM)), ISSUE)).isEqualTo(new PlacementDecision.Placed(
                List.of(new Assignment(0, "fs0", 3, List.of("fs0-n12", "fs0-n12", "fs0-n13")))));
        // fs0's big hosts half busy (8 cores, 32G, 1 GPU free each): fs0 ranks (48 + 32) / 8 = 10, still
        // above fs1's 8, and holds 4 (one per big host; the small ones have 4 cores): 3 fit there.
        List<HostView> busy = new ArrayList<>(hosts("fs0", 0, 12, SMALL));
        for (int i = 12; i < 16; i++) {
            busy.add(new HostView("fs0-n" + i, BIG, ask(8, 32, 1)));
        }
        GridView halfBusy = grid(new SiteView("fs0", busy), fs1());
        assertThat(worstFit.place(job(need(0, 3, MEDIUM)), halfBusy)).isEqualTo(new PlacementDecision.Placed(
                List.of(new Assignment(0, "fs0", 3, List.of("fs0-n12", "fs0-n13", "fs0-n14")))));
        // 5 do not: fs0 ranks first but holds 4, so the next in rank that holds them takes them: fs1.
        assertThat(worstFit.place(job(need(0, 5, MEDIUM)), halfBusy)).isEqualTo(new PlacementDecision.Placed(
                List.of(new Assignment(0, "fs1", 5, List.of("fs1-n00", "fs1-n01", "fs1-n02", "fs1-n03", "fs1-n04")))));
    }

    @Test
    void aCoAllocatedJobPutsEachComponentWhereItsHostKindIsAndCountsWhatTheFirstTook() {
        // Largest first: component 1 (4 nodes of 4 cores, 8G) -> fs0 (ranks 112 / 4 = 28 against fs1's
        // 64 / 4 = 16), on the small hosts by best fit. Component 0 (2 nodes of 16 cores, 64G) then fits
        // only fs0's big hosts, which the first left whole: fs0-n12 and fs0-n13.
        JobNeed job = job(need(0, 2, ask(16, 64, 0)), need(1, 4, SMALL));
        assertThat(worstFit.place(job, ISSUE)).isEqualTo(new PlacementDecision.Placed(List.of(
                new Assignment(0, "fs0", 2, List.of("fs0-n12", "fs0-n13")),
                new Assignment(1, "fs0", 4, List.of("fs0-n00", "fs0-n01", "fs0-n02", "fs0-n03")))));
    }

    @Test
    void theNextComponentIsCountedAgainstTheHostsTheFirstTook() {
        // Two components of 4 nodes of 16 cores and 64G: fs0 holds 4 such nodes in all, so the
        // first takes them and the second waits, though each alone would fit.
        JobNeed job = job(need(0, 4, ask(16, 64, 0)), need(1, 4, ask(16, 64, 0)));
        assertThat(worstFit.place(job, ISSUE)).isEqualTo(new PlacementDecision.NotPlaced(List.of(new PlacementReason(1,
                Kind.NOT_ENOUGH_IDLE, "component 1 needs 4 nodes of 16 cores and 64G on one cluster; fs0 none, fs1 none"
                        + " once the job's other components are placed"))));
    }

    @Test
    void clusterMinimizationFillsTheSiteHoldingTheMostNodesOfTheRequestFirst() {
        // 1 core and 2G: fs0 ranks 112 (cores bind), fs1 64. Component 0 (10) -> fs0; component 1 (6)
        // stays on fs0, a site the job uses that still holds it;
        // component 2 (2 nodes of 1 GPU) must stay there as well: only fs0 has GPUs.
        JobNeed job = job(need(0, 10, ask(1, 2, 0)), need(1, 6, ask(1, 2, 0)), need(2, 2, ask(1, 0, 1)));
        PlacementDecision d = clusterMinimization.place(job, ISSUE);
        assertThat(d).isInstanceOf(PlacementDecision.Placed.class);
        assertThat(((PlacementDecision.Placed) d).assignments()).extracting(Assignment::site).containsOnly("fs0");
        assertThat(((PlacementDecision.Placed) d).assignments().get(2).hosts()).containsExactly("fs0-n12", "fs0-n12");
    }

    @Test
    void aRequestNoHostCanHoldNeverFitsAndSaysWhichHostComesClosest() {
        assertThat(worstFit.place(job(need(0, 1, ask(32, 0, 0))), ISSUE)).isEqualTo(new PlacementDecision.NotPlaced(List.of(
                new PlacementReason(0, Kind.NEVER_FITS, "component 0 needs nodes of 32 cores, more than any host has"
                        + " (closest: fs0-n12 with 16 cores, 64G and 2 GPUs)"))));
    }

    @Test
    void moreNodesThanAnySiteHoldsNeverFits() {
        // 16 cores and 64G: a big host holds one; fs0 has 4 of them.
        assertThat(worstFit.place(job(need(0, 5, ask(16, 64, 0))), ISSUE)).isEqualTo(new PlacementDecision.NotPlaced(List.of(
                new PlacementReason(0, Kind.NEVER_FITS, "component 0 needs 5 nodes of 16 cores and 64G on one cluster,"
                        + " more than any cluster holds (most: fs0 with 4 such nodes in all)"))));
    }

    @Test
    void aJobThatWaitsSaysInResourcesWhatEachSiteHasRoomFor() {
        // fs0's big hosts: n12 with 8 cores and 32G free, n13 and n14 full, n15 whole: room for 1 + 2
        // nodes of 8 cores and 32G on 2 hosts; fs1's hosts have 16G each: none.
        List<HostView> hosts = new ArrayList<>(hosts("fs0", 0, 12, SMALL));
        hosts.add(new HostView("fs0-n12", BIG, ask(8, 32, 2)));
        hosts.add(new HostView("fs0-n13", BIG, Resources.NONE));
        hosts.add(new HostView("fs0-n14", BIG, Resources.NONE));
        hosts.add(new HostView("fs0-n15", BIG, BIG));
        GridView busy = grid(new SiteView("fs0", hosts), fs1());
        assertThat(worstFit.place(job(need(0, 4, ask(8, 32, 0))), busy)).isEqualTo(new PlacementDecision.NotPlaced(List.of(
                new PlacementReason(0, Kind.NOT_ENOUGH_IDLE, "component 0 needs 4 nodes of 8 cores and 32G on one cluster;"
                        + " fs0 has room for 3 such nodes (on 2 hosts), fs1 none"))));
    }

    @Test
    void aFixedComponentAskingForGpusWhereThereAreNoneNeverFits() {
        ComponentNeed gpu = new ComponentNeed(0, 1, "fs1", List.of(), ask(1, 0, 1));
        assertThat(worstFit.place(job(gpu), ISSUE)).isEqualTo(new PlacementDecision.NotPlaced(List.of(
                new PlacementReason(0, Kind.NEVER_FITS, "component 0 needs 1 node of 1 core and 1 GPU on fs1,"
                        + " whose hosts hold 0 such nodes in all"))));
    }

    @Test
    void flexibleClusterMinimizationSplitsByNodesOfTheRequest() {
        // 10 nodes of 8 cores and 16G: fs0 ranks 14 and holds 8 (2 per big host): all 8 there; fs1 the rest.
        JobNeed flexible = new JobNeed("f", List.of(need(0, 10, MEDIUM)), true);
        assertThat(new FlexibleClusterMinimization().place(flexible, ISSUE)).isEqualTo(new PlacementDecision.Placed(List.of(
                new Assignment(0, "fs0", 8, List.of("fs0-n12", "fs0-n12", "fs0-n13", "fs0-n13", "fs0-n14", "fs0-n14",
                        "fs0-n15", "fs0-n15")),
                new Assignment(0, "fs1", 2, List.of("fs1-n00", "fs1-n01")))));
    }

    @Test
    void aFlexibleJobWaitingSaysHowManySuchNodesTheGridHasRoomFor() {
        // fs0 here: two big hosts, 4 GPUs in all, one busy; a GPU each, fs0 holds 4 nodes and has room for 3
        JobNeed flexible = new JobNeed("f", List.of(need(0, 4, ask(4, 0, 1))), true);
        List<HostView> busy = new ArrayList<>(hosts("fs0", 12, 1, BIG));
        busy.add(new HostView("fs0-n13", BIG, ask(16, 64, 1)));
        GridView grid = grid(new SiteView("fs0", busy), fs1());
        assertThat(new FlexibleClusterMinimization().place(flexible, grid)).isEqualTo(new PlacementDecision.NotPlaced(List.of(
                new PlacementReason(0, Kind.NOT_ENOUGH_IDLE, "needs 4 nodes of 4 cores and 1 GPU, the grid has room for 3 such nodes (fs0 3)"))));
    }

    @Test
    void sitesWithoutHostsAreCountedInNodesWhateverTheRequest() {
        // the view of today: placement cannot see the hosts, SGE chooses them, a node is a node
        GridView nodes = Fixtures.EXAMPLE;
        assertThat(worstFit.place(job(need(0, 6, ask(8, 32, 1))), nodes))
                .isEqualTo(worstFit.place(job(need(0, 6, Resources.NODE)), nodes))
                .isEqualTo(new PlacementDecision.Placed(List.of(new Assignment(0, "fs0", 6))));
    }

    @Test
    void resourcesAddTakeAndCount() {
        Resources r = ask(8, 32, 1);
        assertThat(r.times(2)).isEqualTo(ask(16, 64, 2));
        assertThat(BIG.minus(r.times(2))).isEqualTo(Resources.NONE);
        assertThat(r.plus(r)).isEqualTo(r.times(2));
        assertThat(BIG.fits(r)).isTrue();
        assertThat(MEDIUM.fits(r)).isFalse();
        assertThat(BIG.count(r)).isEqualTo(2);
        assertThat(BIG.count(ask(1, 0, 0))).isEqualTo(16);
        assertThat(new Resources(2, 512, 0).describe()).isEqualTo("2 cores and 512M");
    }
}
