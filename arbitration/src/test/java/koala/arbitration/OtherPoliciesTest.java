package koala.arbitration;

import static koala.arbitration.FairArbitrationTest.nodes;
import static koala.arbitration.FairArbitrationTest.reason;
import static koala.arbitration.Grid.T0;
import static koala.arbitration.Grid.decide;
import static koala.arbitration.Grid.tenant;
import static koala.arbitration.Grid.with;
import static org.assertj.core.api.Assertions.assertThat;

import koala.arbitration.ShareDecision.Grant;
import koala.arbitration.ShareDecision.Refuse;
import koala.provisioning.Worker;
import org.junit.jupiter.api.Test;

/** fcfs, static-partition and performance, worked through on grids of about 20 worker nodes; T0 is 10:00:00. */
class OtherPoliciesTest {

    private static String brief(ShareDecision d) {
        return d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d);
    }

    @Test
    void fcfsGrantsWhatIsFreeAndNobodyGivesAnythingBack() {
        // a holds 15 busy and 3 idle workers; b asks for 5 with 2 nodes free: it gets the 2, and a keeps its idle ones
        Arbiter fcfs = new Arbiter(ArbitrationSettings.DEFAULTS);
        Tenant a = with(tenant("a", 1, 15), Worker.idle("a16", T0, 0), Worker.idle("a17", T0, 0),
                Worker.idle("a18", T0, 0));
        Arbitration r = decide(fcfs, TakeBackBook.EMPTY, T0, 2, a, tenant("b", 1, 0).asking(5));
        assertThat(r.decisions()).containsExactly(
                new Grant("b", 2, reason(ShareReason.Kind.FREE_NODES, "grant 2 of 5 from the free nodes")),
                new Refuse("b", 3, reason(ShareReason.Kind.GRID_FULL,
                        "3 of 5 refused: the grid has no free nodes, and fcfs takes nothing back")));
        assertThat(r.book()).isEqualTo(TakeBackBook.EMPTY);
        assertThat(r.shares().get("a").text()).isEqualTo("first come, first served: holds 18 nodes");
    }

    @Test
    void staticPartitionHoldsEachInstanceToItsPartEvenWithNodesFree() {
        // 20 nodes, weights 1, 1, 2: parts 5, 5, 10. a holds its 5 and asks for 3 more: refused although 9 are free;
        // c holds 4 and asks for 8: 6 fit in its part
        Arbiter partition = new Arbiter(ArbitrationSettings.of(ShareRule.STATIC_PARTITION));
        Arbitration r = decide(partition, TakeBackBook.EMPTY, T0, 9, tenant("a", 1, 5).asking(3), tenant("b", 1, 2),
                tenant("c", 2, 4).asking(8));
        assertThat(r.shares().values()).extracting(Share::toString).containsExactly(
                "a: part 5 of 20 nodes (weight 1 of 4)", "b: part 5 of 20 nodes (weight 1 of 4)",
                "c: part 10 of 20 nodes (weight 2 of 4)");
        assertThat(r.decisions()).extracting(OtherPoliciesTest::brief).containsExactly("Grant c 6", "Refuse a 3",
                "Refuse c 2");
        assertThat(r.of(Refuse.class).get(0).reason()).isEqualTo(reason(ShareReason.Kind.PARTITION_FULL,
                "3 of 3 refused: its part 5 of 20 nodes (weight 1 of 4) is full"));
    }

    @Test
    void staticPartsShrinkWithTheCapacityAndAnInstanceOverItsPartGivesBack() {
        // local users now run 4 of the 20 nodes: capacity 16, parts 4, 4, 8. a holds 5, one above its part;
        // b holds 3 and asks for 1: a is asked to give one back
        Arbiter partition = new Arbiter(ArbitrationSettings.of(ShareRule.STATIC_PARTITION));
        Arbitration r = decide(partition, TakeBackBook.EMPTY, T0, 0, tenant("a", 1, 5), tenant("b", 1, 3).asking(1),
                tenant("c", 2, 8));
        assertThat(r.decisions()).extracting(OtherPoliciesTest::brief).containsExactly("AskShrink a 1", "Promised b 1");
    }

    @Test
    void performanceMovesNodesFromTheBestOffToTheWorstOff() {
        // figures: a 1.0 (8 busy), b 1.2 (6 busy), c 2.0 (6 busy); margin 25%. c asks for 3: a (1.0 × 1.25 < 2)
        // and b (1.2 × 1.25 = 1.5 < 2) do better by the margin, a best: a gives 2, the round's bound (10% of 20)
        Arbiter performance = new Arbiter(ArbitrationSettings.of(ShareRule.PERFORMANCE));
        Tenant a = tenant("a", 1, 8).reporting(1.0);
        Tenant b = tenant("b", 1, 6).reporting(1.2);
        Tenant c = tenant("c", 1, 6).reporting(2.0);
        Arbitration r = decide(performance, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(3));
        assertThat(r.decisions()).extracting(OtherPoliciesTest::brief).containsExactly("AskShrink a 2", "Promised c 2",
                "Refuse c 1");
        assertThat(r.shares().get("c").text()).isEqualTo("figure 2");

        // b asks for 2: a's 1.0 × 1.25 = 1.25 is not below b's 1.2, so nobody gives to b
        Arbitration notWorse = decide(performance, TakeBackBook.EMPTY, T0, 0, a, b.asking(2), c);
        assertThat(notWorse.decisions()).containsExactly(new Refuse("b", 2, reason(ShareReason.Kind.NO_BETTER_OFF,
                "2 of 2 refused: no instance does better by the margin 25%: its figure 1.2, the best other 1")));
    }

    @Test
    void anInstanceReportingNoFigureCountsAsOneAndKeepsItsMinimumShare() {
        // d reports nothing (1) and has minShare 5 of its 6 workers; a reports 1.3. c (2.0) asks for 3 and takes
        // from d first, the best off, but only d's one node above its minimum; then 2 from a (1.3 × 1.25 < 2)
        Arbiter performance = new Arbiter(ArbitrationSettings.of(ShareRule.PERFORMANCE).withRoundFraction(0.5));
        Tenant a = tenant("a", 1, 8).reporting(1.3);
        Tenant c = tenant("c", 1, 6).reporting(2.0);
        Tenant d = Grid.minShare(tenant("d", 1, 6), 5);
        Arbitration r = decide(performance, TakeBackBook.EMPTY, T0, 0, a, c.asking(3), d);
        assertThat(r.decisions()).extracting(OtherPoliciesTest::brief).containsExactly("AskShrink d 1", "AskShrink a 2",
                "Promised c 3");
        assertThat(r.shares().get("d").text()).isEqualTo("figure 1 (none reported)");
    }

    @Test
    void policiesAreChosenByTheirShortName() {
        assertThat(ShareRule.byName(" Static-Partition ")).hasValue(ShareRule.STATIC_PARTITION);
        assertThat(ShareRule.byName("drf")).isEmpty();
        assertThat(ShareRule.names()).isEqualTo("fcfs, static-partition, fair, performance");
        assertThat(new Arbiter(ArbitrationSettings.of(ShareRule.FAIR)).settings().rule()).isEqualTo(ShareRule.FAIR);
    }
}
