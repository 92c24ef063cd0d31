package koala.arbitration;

import static koala.arbitration.FairArbitrationTest.nodes;
import static koala.arbitration.FairArbitrationTest.reason;
import static koala.arbitration.Grid.T0;
import static koala.arbitration.Grid.at;
import static koala.arbitration.Grid.decide;
import static koala.arbitration.Grid.tenant;
import static org.assertj.core.api.Assertions.assertThat;

import koala.arbitration.ShareDecision.AskShrink;
import koala.arbitration.ShareDecision.Grant;
import koala.arbitration.ShareDecision.Promised;
import org.junit.jupiter.api.Test;

/**
 * Queued work counted as demand ({@code queuedDemand}), on the grid of {@link FairArbitrationTest}:
 * a (weight 1) runs 12 busy workers, b (weight 1) 8, c (weight 2) none, but its framework has
 * work queued that would use 6 nodes; c asks nothing. T0 is 10:00:00; grace 15 s.
 */
class QueuedDemandTest {
    private final Tenant a = tenant("a", 1, 12);
    private final Tenant b = tenant("b", 1, 8);
    private final Tenant c = tenant("c", 2, 0).queuing(6);

    private static String brief(ShareDecision d) {
        return d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d);
    }

    @Test
    void queuedWorkIsDemandAndIsServedWithoutAnAsk() {
        // demands 12, 8 and 6 — the queued work — weights 1, 1, 2: shares 7, 7, 6 as if c asked for 6. At a round,
        // with nobody asking, c is served as if it asked: a is 5 above its share, b 1
        Arbiter loose = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(0.5).withQueuedDemand(true));
        Arbitration r = decide(loose, TakeBackBook.EMPTY, T0, 0, a, b, c);
        assertThat(r.shares().values()).extracting(Share::toString).containsExactly(
                "a: fair share 7 of 20 nodes (demand 12, weight 1)",
                "b: fair share 7 of 20 nodes (demand 8, weight 1)",
                "c: fair share 6 of 20 nodes (demand 6, weight 2)");
        assertThat(r.decisions()).containsExactly(
                new AskShrink("a", 5, at(15), reason(ShareReason.Kind.ASKED_TO_SHRINK,
                        "give back 5 workers for c by 10:00:15 (grace 15 s; fair share 7 of 20 nodes (demand 12, weight 1))")),
                new AskShrink("b", 1, at(15), reason(ShareReason.Kind.ASKED_TO_SHRINK,
                        "give back 1 worker for c by 10:00:15 (grace 15 s; fair share 7 of 20 nodes (demand 8, weight 1))")),
                new Promised("c", 6, at(15), reason(ShareReason.Kind.PROMISED, "6 more nodes being taken back for it, by 10:00:15")));
    }

    @Test
    void withoutTheSettingQueuedWorkIsNotDemandAndFcfsNeverReadsIt() {
        // demands 12, 8, 0 fit in 20: the shares are the demands, and nothing is done for c
        Arbitration off = decide(new Arbiter(ArbitrationSettings.of(ShareRule.FAIR)), TakeBackBook.EMPTY, T0, 0, a, b, c);
        assertThat(off.shares().get("c").nodes()).hasValue(0);
        assertThat(off.decisions()).isEmpty();
        Arbitration fcfs = decide(new Arbiter(ArbitrationSettings.DEFAULTS.withQueuedDemand(true)), TakeBackBook.EMPTY,
                T0, 2, a, b, c);
        assertThat(fcfs.decisions()).isEmpty();
    }

    @Test
    void whatTheBoundsStopIsNotRefusedForNothingWasAsked() {
        // the default bound, 2 of 20 nodes a round: a gives 2; the other 4 wait for later rounds, and no refusal is sent
        Arbiter fair = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR).withQueuedDemand(true));
        Arbitration r = decide(fair, TakeBackBook.EMPTY, T0, 0, a, b, c);
        assertThat(r.decisions()).extracting(QueuedDemandTest::brief).containsExactly("AskShrink a 2", "Promised c 2");
        // 10:00:05, still within the round: c's queue still lacks 4 nodes (6 less the 2 owed), and nothing more is taken
        Arbitration later = decide(fair, r.book(), at(5), 0, a, b, tenant("c", 2, 0).queuing(4));
        assertThat(later.decisions()).isEmpty();
    }

    @Test
    void freeNodesGoToQueuedWorkFirst() {
        // one node free and c's queue lacks 3: capacity 21, demands 12, 8, 3. c is full at level 1.5, b at 8, and a
        // rises to 10: shares 10, 8, 3. c gets the free node, and is entitled to 2 more, which a (2 above) gives:
        // the bound is 2 of 21 a round
        Arbiter fair = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR).withQueuedDemand(true));
        Arbitration r = decide(fair, TakeBackBook.EMPTY, T0, 1, a, b, tenant("c", 2, 0).queuing(3));
        assertThat(r.shares().values()).extracting(s -> s.nodes().getAsInt()).containsExactly(10, 8, 3);
        assertThat(r.decisions()).extracting(QueuedDemandTest::brief).containsExactly("AskShrink a 2", "Grant c 1",
                "Promised c 2");
        assertThat(r.of(Grant.class).get(0).reason()).isEqualTo(reason(ShareReason.Kind.FREE_NODES,
                "grant 1 of 3 for its queued work from the free nodes"));
    }
}
