package koala.arbitration;

import static koala.arbitration.Grid.T0;
import static koala.arbitration.Grid.at;
import static koala.arbitration.Grid.decide;
import static koala.arbitration.Grid.tenant;
import static org.assertj.core.api.Assertions.assertThat;

import koala.arbitration.ShareDecision.AskShrink;
import koala.arbitration.ShareDecision.EndWorkers;
import koala.arbitration.ShareDecision.Grant;
import koala.arbitration.ShareDecision.Promised;
import koala.arbitration.ShareDecision.Refuse;
import org.junit.jupiter.api.Test;

/**
 * Fair sharing when workers are larger than a node: the arbiter shares out the grid's nodes (a core with
 * the grid's memory per core), and a worker of 4 cores, or of one core with four cores' memory, takes 4
 * of them ({@link Tenant#size()}). Grants, shrinks, promises and refusals are in the instance's own
 * workers; shares in the grid's nodes. A grid of 32 nodes, nothing free; T0 is 10:00:00, rounds of 15 s,
 * grace 15 s, and a loose bound (half the capacity a round) unless said.
 */
class SizedWorkersTest {
    private final Arbiter loose = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(0.5));
    private final Arbiter fair = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR));

    @Test
    void aLargeWorkerCountsItsSizeInTheShares() {
        // a runs 8 workers of one node, b 6 of four (24 nodes). a asks for 12 more: demands 20 and 24 nodes,
        // fair shares 16 and 16. a is entitled to 8 more nodes; b is 8 above its share: 2 of its workers
        Tenant a = tenant("a", 1, 8).asking(12);
        Tenant b = tenant("b", 1, 6).sized(4);
        Arbitration r = decide(loose, TakeBackBook.EMPTY, T0, 0, a, b);
        assertThat(r.shares().values()).extracting(Share::toString).containsExactly(
                "a: fair share 16 of 32 nodes (demand 20, weight 1)",
                "b: fair share 16 of 32 nodes (demand 24, weight 1, a worker counts 4)");
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink b 2", "Promised a 8", "Refuse a 4");
        assertThat(r.of(Refuse.class).get(0).reason().text()).isEqualTo("4 of 12 refused: its fair share 16 of 32 "
                + "nodes (demand 20, weight 1) leaves room for 8");
        assertThat(r.book().asks()).extracting(TakeBackBook.Ask::nodes, TakeBackBook.Ask::toSize)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(8, 16));
    }

    @Test
    void aLargeWorkerTakesBackNodesOfOneAndIsGrantedWhenTheyAreEnded() {
        // a runs 24 workers of one node, b 2 of four and asks for 2 more: demands 24 and 16, shares 16 and 16.
        // b is entitled to 8 nodes, 2 workers; a gives 8 of its own
        Tenant a = tenant("a", 1, 24);
        Tenant b = tenant("b", 1, 2).sized(4);
        Arbitration asked = decide(loose, TakeBackBook.EMPTY, T0, 0, a, b.asking(2));
        assertThat(asked.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 8", "Promised b 2");

        // 10:00:15 a gave nothing back: its 8 youngest workers are ended, and b gets its 2 workers
        Arbitration over = decide(loose, asked.book(), at(15), 0, a, b);
        assertThat(over.of(EndWorkers.class).get(0).workers())
                .containsExactly("a24", "a23", "a22", "a21", "a20", "a19", "a18", "a17");
        assertThat(over.of(Grant.class)).extracting(Grant::nodes, g -> g.reason().text())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2, "grant 2 taken back for it at 10:00:00"));
    }

    @Test
    void aShareIsTakenInWholeWorkers() {
        // b (weight 0.25, workers of four) asks for 2 workers beside a's 29 busy workers of one: level 23.2,
        // shares 23.2 and 5.8, rounded 23 and 6. Six nodes make one worker of b's: one granted, one refused
        Tenant a = tenant("a", 1, 29);
        Tenant b = new Tenant("b", 0.25, 0, java.util.List.of(), 0, 2, java.util.OptionalDouble.empty()).sized(4);
        Arbitration r = decide(loose, TakeBackBook.EMPTY, T0, 0, a, b);
        assertThat(r.shares().get("b").text()).isEqualTo("fair share 6 of 29 nodes (demand 8, weight 0.25, a worker counts 4)");
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 4", "Promised b 1", "Refuse b 1");
    }

    @Test
    void aDonorGivesAWholeWorkerForLessThanOne() {
        // a asks for 3 nodes of one beside b's 8 busy workers of four (32 nodes): shares 3 and 29. b is 3 above
        // its share and gives one whole worker (4 nodes): 3 are a's, the fourth comes free for anyone
        Tenant a = tenant("a", 1, 0).asking(3);
        Tenant b = tenant("b", 1, 8).sized(4);
        Arbitration r = decide(loose, TakeBackBook.EMPTY, T0, 0, a, b);
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink b 1", "Promised a 3");
        assertThat(r.book().owed()).extracting(TakeBackBook.Owed::nodes).containsExactly(3);
    }

    @Test
    void theBoundPerRoundLetsOneWholeWorkerThrough() {
        // the default bound is 10% of the capacity: 3 of 32 nodes a round, less than one of b's workers.
        // One worker a round is still taken, or b's could never be: a is promised its 4 nodes, the rest refused
        Tenant a = tenant("a", 1, 8).asking(8);
        Tenant b = tenant("b", 1, 6).sized(4);
        Arbitration r = decide(fair, TakeBackBook.EMPTY, T0, 0, a, b);
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink b 1", "Promised a 4", "Refuse a 4");
        assertThat(r.of(Refuse.class).get(0).reason().text())
                .isEqualTo("4 of 8 refused: at most 3 nodes are taken back per 15 s (10% of 32)");
    }

    private static String nodes(ShareDecision d) {
        return FairArbitrationTest.nodes(d);
    }
}
