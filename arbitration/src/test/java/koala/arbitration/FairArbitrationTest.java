package koala.arbitration;

import static koala.arbitration.Grid.T0;
import static koala.arbitration.Grid.at;
import static koala.arbitration.Grid.decide;
import static koala.arbitration.Grid.tenant;
import static koala.arbitration.Grid.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import koala.arbitration.ShareDecision.AskShrink;
import koala.arbitration.ShareDecision.EndWorkers;
import koala.arbitration.ShareDecision.Grant;
import koala.arbitration.ShareDecision.Promised;
import koala.arbitration.ShareDecision.Refuse;
import koala.arbitration.ShareDecision.ReleaseIdle;
import koala.provisioning.Worker;
import org.junit.jupiter.api.Test;

/**
 * Fair sharing, worked through on a grid of 20 worker nodes: a (weight 1) runs 12 busy workers
 * a1..a12, b (weight 1) 8 busy workers, c (weight 2) none, and nothing is free. T0 is 10:00:00;
 * grace 15 s, stabilization window 300 s, rounds of 15 s.
 */
class FairArbitrationTest {
    /** The default bound: at most 10% of the capacity, 2 of 20 nodes, taken back per round. */
    private final Arbiter fair = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR));
    /** A loose bound (10 of 20 nodes a round), to show the shares alone. */
    private final Arbiter loose = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(0.5));

    private final Tenant a = tenant("a", 1, 12);
    private final Tenant b = tenant("b", 1, 8);
    private final Tenant c = tenant("c", 2, 0);

    @Test
    void theSharesAreWaterFilledOnDemandsAndTheAskerTakesFromThoseAboveTheirs() {
        // c asks for 6: demands 12, 8, 6 (busy workers and the ask), weights 1, 1, 2. At level 3 c is full
        // (2 × 3 = 6); a and b rise together to 7: fair shares 7, 7, 6. c is entitled to all 6; a is 5 above
        // its share, b 1, so a is asked first, both to give back by 10:00:15
        Arbitration r = decide(loose, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(6));
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
    void idleWorkersAreTakenFirstAndTheirNodesGrantedAtOnce() {
        // a has 10 busy workers and two idle: a11 since 09:58:00, a12 since 09:59:00. Idle workers are not
        // demand: demands 10, 8, 6 → shares 7, 7, 6 again. a gives 5: its 2 idle workers now (longest idle
        // first), and is asked for 3; b for 1. The 2 idle nodes are c's within this very decision.
        Tenant someIdle = with(tenant("a", 1, 10), Worker.idle("a11", T0.minusSeconds(120), 0),
                Worker.idle("a12", T0.minusSeconds(60), 0));
        Arbitration r = decide(loose, TakeBackBook.EMPTY, T0, 0, someIdle, b, c.asking(6));
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("ReleaseIdle a [a11, a12]", "AskShrink a 3", "AskShrink b 1", "Grant c 2", "Promised c 4");
        assertThat(r.of(ReleaseIdle.class).get(0).reason().text())
                .isEqualTo("idle a11, a12 taken back for c (fair share 7 of 20 nodes (demand 10, weight 1))");
        assertThat(r.of(Grant.class).get(0).reason()).isEqualTo(reason(ShareReason.Kind.TAKEN_BACK,
                "grant 2 taken back for it at 10:00:00"));
    }

    @Test
    void atMostATenthOfTheCapacityIsTakenBackPerRound() {
        // 10% of 20: 2 nodes a round. Of c's 6, a gives 2 and 4 are refused; c asks again as it needs them
        Arbitration first = decide(fair, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(6));
        assertThat(first.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 2", "Promised c 2", "Refuse c 4");
        assertThat(first.of(Refuse.class).get(0).reason()).isEqualTo(reason(ShareReason.Kind.ROUND_BUDGET,
                "4 of 6 refused: at most 2 nodes are taken back per 15 s (10% of 20)"));

        // 10:00:05 c asks for 4 again: this round's 2 are spent
        Arbitration again = decide(fair, first.book(), at(5), 0, a, b, c.asking(4));
        assertThat(again.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + nodes(d))
                .containsExactly("Refuse 4");

        // 10:00:14 a has given back 2 workers itself: the 2 free nodes are c's
        Tenant aDown = tenant("a", 1, 10);
        Arbitration given = decide(fair, again.book(), at(14), 2, aDown, b, c);
        assertThat(given.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("Grant c 2");

        // 10:00:15 c, running c1 and c2, asks for 4 once more and the next round's 2 are taken: demands 10, 8,
        // 2 + 4 → shares 7, 7, 6; c holds 2, so it is entitled to 4; a is 3 above its share, b 1: a gives 2
        Tenant cUp = with(c, Worker.busy("c1", 90), Worker.busy("c2", 90));
        Arbitration next = decide(fair, given.book(), at(15), 0, aDown, b, cUp.asking(4));
        assertThat(next.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 2", "Promised c 2", "Refuse c 2");
        assertThat(next.shares().get("c").nodes()).hasValue(6);
    }

    @Test
    void theGracePeriodRunsOutAndKoalaEndsWorkersItself() {
        // a's workers differ in CPU: a3 and a7 at 20%, the others 90%
        Tenant mixed = new Tenant("a", 1, 0, List.of(Worker.busy("a1", 90), Worker.busy("a2", 90),
                Worker.busy("a3", 20), Worker.busy("a4", 90), Worker.busy("a5", 90), Worker.busy("a6", 90),
                Worker.busy("a7", 20), Worker.busy("a8", 90), Worker.busy("a9", 90), Worker.busy("a10", 90),
                Worker.busy("a11", 90), Worker.busy("a12", 90)), 0, 0, java.util.OptionalDouble.empty());
        Arbitration asked = decide(fair, TakeBackBook.EMPTY, T0, 0, mixed, b, c.asking(2));
        assertThat(asked.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 2", "Promised c 2");

        // 10:00:10 a has given nothing back: nothing to do yet
        assertThat(decide(fair, asked.book(), at(10), 0, mixed, b, c).decisions()).isEmpty();

        // 10:00:15 the grace period is over and a still holds 12: KOALA ends 2, the least CPU first, ties to the
        // highest id (a7 before a3); their nodes are c's at once, and stay c's for the window
        Arbitration over = decide(fair, asked.book(), at(15), 0, mixed, b, c);
        assertThat(over.decisions()).containsExactly(
                new EndWorkers("a", List.of("a7", "a3"), reason(ShareReason.Kind.GRACE_OVER,
                        "grace 15 s over: asked at 10:00:00 to be down to 10 nodes for c, holds 12: ending a7, a3")),
                new Grant("c", 2, reason(ShareReason.Kind.TAKEN_BACK, "grant 2 taken back for it at 10:00:00")));
        assertThat(over.book()).isEqualTo(new TakeBackBook(List.of(), List.of(),
                List.of(new TakeBackBook.Move("c", 2, at(15))), List.of(new TakeBackBook.Taking("a", 2, T0)), List.of()));
    }

    @Test
    void anInstanceAskedToGiveBackGetsNoNodesMeanwhile() {
        // a is asked for 2 by 10:00:15; at 10:00:05 a node comes free and a asks for 1: refused — else it could hold
        // what it was asked to give and have the workers of its new job ended. The free node is c's, owed 2
        Arbitration asked = decide(fair, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(2));
        Arbitration r = decide(fair, asked.book(), at(5), 1, a.asking(1), b, c);
        assertThat(r.decisions()).containsExactly(
                new Grant("c", 1, reason(ShareReason.Kind.TAKEN_BACK, "grant 1 taken back for it at 10:00:00")),
                new Refuse("a", 1, reason(ShareReason.Kind.GIVING_BACK,
                        "1 of 1 refused: it is to give nodes back by 10:00:15 and gets none meanwhile")));
    }

    @Test
    void anInstanceThatGivesBackInTimeChoosesItsWorkersAndTheNodesGoToTheAsker() {
        Arbitration asked = decide(fair, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(2));
        // 10:00:12 a has ended a11 and a12 itself: 2 nodes are free
        Arbitration r = decide(fair, asked.book(), at(12), 2, tenant("a", 1, 10), b, c);
        assertThat(r.decisions()).containsExactly(new Grant("c", 2, reason(ShareReason.Kind.TAKEN_BACK,
                "grant 2 taken back for it at 10:00:00")));
        assertThat(r.book().asks()).isEmpty();
    }

    @Test
    void theMinimumShareIsNeverTakenBackNotEvenIdleWorkers() {
        // a (minShare 10) runs 4 busy workers and 8 idle ones (a5..a12, idle since 09:50:00 + 10 s apiece);
        // demands 4, 8, 6 fit in 20, so the shares are the demands. c is entitled to 6; a is 8 above its share
        // but may come down only to its minimum 10: it gives its 2 longest idle; b has no more than its share
        Tenant lazy = Grid.minShare(tenant("a", 1, 4), 10);
        for (int i = 5; i <= 12; i++) {
            lazy = with(lazy, Worker.idle("a" + i, T0.minusSeconds(600 - 10L * i), 0));
        }
        Arbitration r = decide(loose, TakeBackBook.EMPTY, T0, 0, lazy, b, c.asking(6));
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("ReleaseIdle a [a5, a6]", "Grant c 2", "Refuse c 4");
        assertThat(r.of(Refuse.class).get(0).reason()).isEqualTo(reason(ShareReason.Kind.DONORS_AT_FLOOR, "4 of 6 refused: "
                + "entitled to 6 more, but the instances above their share could give only 2 (minimum shares, nodes "
                + "moved within 300 s)"));
    }

    @Test
    void noNodeMovesTwiceWithinTheStabilizationWindow() {
        // c was granted 2 nodes taken back from a at 10:00:15 (the grace example); by 10:02:00 both are idle
        // and a asks for 2. c's demand is 0, its share 0, yet both its nodes moved to it within 300 s: they stay
        TakeBackBook book = new TakeBackBook(List.of(), List.of(), List.of(new TakeBackBook.Move("c", 2, at(15))),
                List.of(), List.of());
        Tenant cIdle = with(c, Worker.idle("c1", at(60), 0), Worker.idle("c2", at(90), 0));
        Tenant aAsks = tenant("a", 1, 10).asking(2);
        Arbitration within = decide(fair, book, at(120), 0, aAsks, b, cIdle);
        assertThat(within.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("Refuse a 2");
        assertThat(within.decisions().get(0).reason().kind()).isEqualTo(ShareReason.Kind.DONORS_AT_FLOOR);

        // 10:05:15, 300 s after the move, they may move again
        Arbitration after = decide(fair, book, at(315), 0, aAsks, b, cIdle);
        assertThat(after.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("ReleaseIdle c [c1, c2]", "Grant a 2");
    }

    @Test
    void anInstanceThatGaveNodesBackTakesNoneBackWithinTheWindow() {
        // a gave 2 nodes back at 10:00:00. At 10:01:00 it runs 5 busy workers and asks for 2; b runs 12, c 3,
        // nothing is free. Demands 7, 12, 3 on 20: a and c are met, b gets the other 10 — a is entitled to its 2,
        // but nodes that just left it do not flow back within the window: free nodes only, and none are free
        TakeBackBook gave = new TakeBackBook(List.of(), List.of(), List.of(),
                List.of(new TakeBackBook.Taking("a", 2, T0)), List.of());
        Arbitration r = decide(fair, gave, at(60), 0, tenant("a", 1, 5).asking(2), tenant("b", 1, 12),
                tenant("c", 2, 3));
        assertThat(r.shares().get("a").nodes()).hasValue(7);
        assertThat(r.decisions()).containsExactly(new Refuse("a", 2, reason(ShareReason.Kind.GAVE_RECENTLY,
                "2 of 2 refused: it gave nodes back at 10:00:00 and takes none back before 10:05:00 (stabilization "
                        + "window 300 s)")));
        // 10:05:01: it may take again; b is 2 above its share
        assertThat(decide(fair, gave, at(301), 0, tenant("a", 1, 5).asking(2), tenant("b", 1, 12), tenant("c", 2, 3))
                .decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink b 2", "Promised a 2");
    }

    @Test
    void withPatienceNodesAreTakenBackOnlyForAShortfallThatLasts() {
        // patience 60 s: c is first refused below its share at 10:00:00, and still at 10:00:30; at 10:01:00 it has
        // been short for the patience and a gives
        Arbiter patient = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR).withPatience(java.time.Duration.ofSeconds(60)));
        Arbitration first = decide(patient, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(2));
        assertThat(first.decisions()).containsExactly(new Refuse("c", 2, reason(ShareReason.Kind.PATIENCE, "2 of 2 refused: "
                + "refused below its share since 10:00:00; nodes are taken back for it from 10:01:00 (patience 60 s)")));
        Arbitration second = decide(patient, first.book(), at(30), 0, a, b, c.asking(2));
        assertThat(second.decisions()).extracting(ShareDecision::reason).extracting(ShareReason::kind)
                .containsExactly(ShareReason.Kind.PATIENCE);
        Arbitration third = decide(patient, second.book(), at(60), 0, a, b, c.asking(2));
        assertThat(third.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 2", "Promised c 2");

        // a grow granted in full from free nodes ends the shortfall: the patience starts again
        Arbitration met = decide(patient, second.book(), at(40), 2, a, b, c.asking(2));
        assertThat(met.book().starved()).isEmpty();
        assertThat(decide(patient, met.book(), at(60), 0, a, b, with(c, Worker.busy("c1", 90), Worker.busy("c2", 90))
                .asking(2)).decisions()).extracting(ShareDecision::reason).extracting(ShareReason::kind)
                .containsExactly(ShareReason.Kind.PATIENCE);
    }

    @Test
    void atMostMaxPerHourNodesAreTakenFromOneInstanceInAnHour() {
        // at most 3 an hour from one instance: of c's 6 (shares 7, 7, 6), a gives 3 where it could give 5, b its 1
        Arbiter hourly = new Arbiter(ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(0.5).withMaxPerHour(3));
        Arbitration r = decide(hourly, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(6));
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 3", "AskShrink b 1", "Promised c 4", "Refuse c 2");
        assertThat(r.of(Refuse.class).get(0).reason().text()).isEqualTo("2 of 6 refused: entitled to 6 more, but the "
                + "instances above their share could give only 4 (minimum shares, nodes moved within 300 s, at most 3 "
                + "nodes from one instance an hour)");
        // 10:59:59 a still gives nothing more; at 11:00:00 the takings of 10:00:00 are an hour old
        Tenant aDown = tenant("a", 1, 9);
        Tenant cUp = with(c, Worker.busy("c1", 90), Worker.busy("c2", 90), Worker.busy("c3", 90), Worker.busy("c4", 90));
        TakeBackBook after = new TakeBackBook(List.of(), List.of(), List.of(), r.book().takings(), List.of());
        assertThat(decide(hourly, after, at(3599), 0, aDown, tenant("b", 1, 7), cUp.asking(2)).decisions())
                .extracting(d -> d.getClass().getSimpleName() + " " + d.tenant()).containsExactly("Refuse c");
        assertThat(decide(hourly, after, at(3600), 0, aDown, tenant("b", 1, 7), cUp.asking(2)).decisions())
                .extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 2", "Promised c 2");
    }

    @Test
    void aPromiseThatDoesNotComeFreeInTimeIsRefused() {
        Arbitration asked = decide(fair, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(2));
        // 10:00:10 a gives back 2, but local users' jobs take both nodes before c gets them: nothing is free
        Tenant aDown = tenant("a", 1, 10);
        Arbitration waiting = decide(fair, asked.book(), at(10), 0, aDown, b, c);
        assertThat(waiting.decisions()).isEmpty();
        // the promise holds until its deadline (10:00:15) and a round (15 s)
        assertThat(decide(fair, waiting.book(), at(29), 0, aDown, b, c).decisions()).isEmpty();
        assertThat(decide(fair, waiting.book(), at(30), 0, aDown, b, c).decisions()).containsExactly(
                new Refuse("c", 2, reason(ShareReason.Kind.TAKE_BACK_SHORT, "2 nodes taken back for it did not come free by "
                        + "10:00:30")));
    }

    @Test
    void localUsersLoadOnlyLowersTheCapacity() {
        // a grid of 30 nodes on which local users run 6: the KIS reports 4 free, the instances hold 20, so the
        // capacity is 24. Demands 12, 8, 6 = 26 > 24: a alone rises from level 8 to 10 → shares 10, 8, 6. c gets
        // the 4 free nodes and is owed 2 more, which a (2 above its share) is asked for; the local users' 6
        // nodes are nobody's to take
        Arbitration r = decide(fair, TakeBackBook.EMPTY, T0, 4, a, b, c.asking(6));
        assertThat(r.shares().get("a").nodes()).hasValue(10);
        assertThat(r.decisions()).extracting(d -> d.getClass().getSimpleName() + " " + d.tenant() + " " + nodes(d))
                .containsExactly("AskShrink a 2", "Grant c 4", "Promised c 2");
        assertThat(r.of(Grant.class).get(0).reason().text()).isEqualTo("grant 4 of 6 from the free nodes");
    }

    @Test
    void theOrderOfTheSnapshotDoesNotMatter() {
        assertThat(decide(loose, TakeBackBook.EMPTY, T0, 0, c.asking(6), b, a))
                .isEqualTo(decide(loose, TakeBackBook.EMPTY, T0, 0, a, b, c.asking(6)));
    }

    static ShareReason reason(ShareReason.Kind kind, String text) {
        return new ShareReason(kind, text);
    }

    /** "2", or the workers named. */
    static String nodes(ShareDecision d) {
        if (d instanceof Grant g) {
            return String.valueOf(g.nodes());
        } else if (d instanceof Promised p) {
            return String.valueOf(p.nodes());
        } else if (d instanceof Refuse r) {
            return String.valueOf(r.nodes());
        } else if (d instanceof AskShrink s) {
            return String.valueOf(s.nodes());
        } else if (d instanceof ReleaseIdle i) {
            return i.workers().toString();
        }
        return ((EndWorkers) d).workers().toString();
    }
}
