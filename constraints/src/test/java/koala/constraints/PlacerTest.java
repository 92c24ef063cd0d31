package koala.constraints;

import static koala.constraints.Fixtures.RACK;
import static koala.constraints.Fixtures.apply;
import static koala.constraints.Fixtures.ask;
import static koala.constraints.Fixtures.at;
import static koala.constraints.Fixtures.grid;
import static koala.constraints.Fixtures.masterApartFromOrchestrator;
import static koala.constraints.Fixtures.node;
import static koala.constraints.Fixtures.placed;
import static koala.constraints.Fixtures.request;
import static koala.constraints.Fixtures.role;
import static koala.constraints.Fixtures.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import koala.constraints.Constraint.Affinity;
import koala.constraints.Constraint.AntiAffinity;
import koala.constraints.Constraint.Cardinality;
import org.junit.jupiter.api.Test;

/**
 * The examples, worked. Of the nodes keeping every hard constraint, the fewest soft breaks
 * win, then the emptiest site (most free slots), then on it the node left with the fewest free slots
 * (best fit), then the name.
 */
class PlacerTest {

    @Test
    void anInstancesMasterAndOrchestratorGoToDifferentSites() {
        // fs0-n0..n2 and fs1-n0, 2 slots each. Both containers have 1 hard constraint: master first.
        // master: fs0 (6 free) before fs1 (2); on fs0 every node leaves 1, fs0-n0 by name.
        // orchestrator: fs0 (5 free) would come first, and fs0-n0 (0 left) fit best, but site fs0 holds A's
        // master: all 3 fs0 nodes ruled out; fs1-n0.
        ClusterState state = new ClusterState(List.of(node("fs0", 0, 2, null), node("fs0", 1, 2, null),
                node("fs0", 2, 2, null), node("fs1", 0, 2, null)));
        Request a = request("A", List.of(masterApartFromOrchestrator("A", Group.SITE, true)), ask("A", "master", -1),
                ask("A", "orchestrator", -1));
        ConstraintDecision.Placed p = placed(Placer.place(state, a));
        assertThat(p.placements()).containsExactly(at("A-master", "fs0-n0"), at("A-orchestrator", "fs1-n0"));
        assertThat(p.softViolations()).isZero();

        // without the constraint the orchestrator fills fs0-n0
        Request blind = request("A", List.of(), ask("A", "master", -1), ask("A", "orchestrator", -1));
        assertThat(placed(Placer.place(state, blind)).placements())
                .containsExactly(at("A-master", "fs0-n0"), at("A-orchestrator", "fs0-n0"));
    }

    @Test
    void aConstraintInForceHoldsForLaterRequestsAsTarget() {
        // A's master runs on fs0-n0 with the anti-affinity in force; a second orchestrator, asked later
        // without constraints of its own, still keeps off site fs0: fs1-n0.
        ClusterState state = grid(2, 2, "fs0", "fs1");
        apply(state, request("A", List.of(masterApartFromOrchestrator("A", Group.SITE, true)), ask("A", "master", -1)));
        ConstraintDecision.Placed p = placed(Placer.place(state, request("A-grow", List.of(), ask("A", "orchestrator", 2))));
        assertThat(p.placements()).containsExactly(at("A-orchestrator2", "fs1-n0"));
    }

    @Test
    void atMostTwoWorkersOfAnInstancePerHost() {
        // n0 and n1 with 4 slots. w0 -> n0 (3 left, first by name), w1 -> n0 (2 left < 3), w2: n0 would hold 3
        // of A's workers > 2, ruled out -> n1; w3 -> n1 (2 left).
        ClusterState state = grid(2, 4, "fs0");
        Cardinality twoPerHost = new Cardinality(role("A", "worker"), role("A", "worker"), Group.HOST, 0, 2, true);
        Request grow = request("A-grow", List.of(twoPerHost), ask("A", "worker", 0), ask("A", "worker", 1),
                ask("A", "worker", 2), ask("A", "worker", 3));
        ConstraintDecision.Placed p = apply(state, grow);
        assertThat(p.placements()).containsExactly(at("A-worker0", "fs0-n0"), at("A-worker1", "fs0-n0"),
                at("A-worker2", "fs0-n1"), at("A-worker3", "fs0-n1"));

        // a fifth: both hosts have 2 free slots, both already hold 2 of A's workers -> waits, nothing taken
        ConstraintDecision.Waiting w = waiting(Placer.place(state, request("A-grow2", List.of(), ask("A", "worker", 4))));
        assertThat(w.reasons()).hasSize(1);
        ConstraintReason r = w.reasons().get(0);
        assertThat(r.kind()).isEqualTo(ConstraintReason.Kind.HARD_CONSTRAINT);
        assertThat(r.constraint()).isEqualTo(twoPerHost);
        assertThat(r.nodesRuledOut()).isEqualTo(2);
        assertThat(r.text()).isEqualTo("A-worker4 {instance=A, role=worker}: hard cardinality 0..2 of "
                + "{instance=A, role=worker} per host of {instance=A, role=worker} rules out 2 of 2 nodes with a free slot "
                + "(node fs0-n0 would hold 3 containers tagged {instance=A, role=worker}, at most 2)");
        assertThat(state.free("fs0-n0")).isEqualTo(2);
        assertThat(state.free("fs0-n1")).isEqualTo(2);
    }

    @Test
    void workersOfInstanceBGoToTheSiteOfInstanceAsMaster() {
        // A's master runs on fs1-n0 (2 slots, 1 free). B brings a hard affinity of its workers to A's master
        // over site. Workers first (1 hard constraint each; the master has none): fs0 (4 free, the emptier
        // site) ruled out; w0 -> fs1-n0 (0 left), w1 -> fs1-n1 (1 left); B's master, unconstrained, goes to
        // the emptier site: fs0 (4 free against fs1's 1), fs0-n0.
        ClusterState state = grid(2, 2, "fs0", "fs1");
        state.add(new Container("A-master", role("A", "master"), "fs1-n0"));
        Affinity nearA = new Affinity(role("B", "worker"), role("A", "master"), Group.SITE, true);
        Request b = request("B", List.of(nearA), ask("B", "master", -1), ask("B", "worker", 0), ask("B", "worker", 1));
        assertThat(placed(Placer.place(state, b)).placements()).containsExactly(at("B-master", "fs0-n0"),
                at("B-worker0", "fs1-n0"), at("B-worker1", "fs1-n1"));
    }

    @Test
    void workersBoundToTwoMastersTakeTheirOwnMasterToTheOthersSite() {
        // B's workers must share a site with B's master and with A's master (on fs1-n0): by the chain, B's master
        // must be on fs1 too (a derived hard affinity of B's master to A's master over site). B's master first
        // (level 0): fs0, the emptier site (4 free against 1), ruled out; fs1-n0 (0 left). Workers on fs1:
        // fs1-n1 (1 left, then 0). Without the chain the master took fs0-n0 and the workers waited.
        ClusterState state = grid(2, 2, "fs0", "fs1");
        state.add(new Container("A-master", role("A", "master"), "fs1-n0"));
        Request b = request("B", List.of(new Affinity(role("B", "worker"), role("B", "master"), Group.SITE, true),
                new Affinity(role("B", "worker"), role("A", "master"), Group.SITE, true)), ask("B", "master", -1),
                ask("B", "worker", 0), ask("B", "worker", 1));
        assertThat(placed(Placer.place(state, b)).placements()).containsExactly(at("B-master", "fs1-n0"),
                at("B-worker0", "fs1-n1"), at("B-worker1", "fs1-n1"));
    }

    @Test
    void aHardConstraintThatCannotBeMetWaitsWithTheReasonAndTakesNothing() {
        // A's master runs nowhere: each of B's workers is ruled out on all 4 nodes; B's master, placeable
        // alone, is not placed either (all or nothing).
        ClusterState state = grid(2, 2, "fs0", "fs1");
        Affinity nearA = new Affinity(role("B", "worker"), role("A", "master"), Group.SITE, true);
        Request b = request("B", List.of(nearA), ask("B", "master", -1), ask("B", "worker", 0), ask("B", "worker", 1));
        ConstraintDecision.Waiting w = waiting(Placer.place(state, b));
        assertThat(w.reasons()).extracting(ConstraintReason::container).containsExactly("B-worker0", "B-worker1");
        assertThat(w.reasons()).allSatisfy(r -> {
            assertThat(r.kind()).isEqualTo(ConstraintReason.Kind.HARD_CONSTRAINT);
            assertThat(r.constraint()).isEqualTo(nearA);
            assertThat(r.nodesRuledOut()).isEqualTo(4);
        });
        assertThat(w.reasons().get(0).text()).isEqualTo("B-worker0 {instance=B, role=worker}: hard affinity of "
                + "{instance=B, role=worker} to {instance=A, role=master} over site rules out 4 of 4 nodes with a free "
                + "slot (no container tagged {instance=A, role=master} runs anywhere)");
        assertThat(state.containers()).isEmpty();
    }

    @Test
    void aJobsTwoComponentsGoToDifferentRacks() {
        // fs0-n0, n1 in rack r0, fs0-n2, n3 in rack r1, 1 slot each. c0 -> fs0-n0 (0 left, first by name);
        // c1: fs0-n0 full, fs0-n1 in c0's rack r0, ruled out -> fs0-n2.
        ClusterState state = new ClusterState(List.of(node("fs0", 0, 1, "r0"), node("fs0", 1, 1, "r0"),
                node("fs0", 2, 1, "r1"), node("fs0", 3, 1, "r1")));
        Tags c0 = Tags.of("job=J", "component=0");
        Tags c1 = Tags.of("job=J", "component=1");
        Request j = new Request("J", List.of(new Ask("J.0", c0), new Ask("J.1", c1)),
                List.of(new AntiAffinity(c0, c1, RACK, true)));
        assertThat(placed(Placer.place(state, j)).placements()).containsExactly(at("J.0", "fs0-n0"), at("J.1", "fs0-n2"));

        // with rack r1 full, c1 has nowhere to go: fs0-n1 is ruled out (1 of 1 node with a free slot)
        state.add(new Container("x", Tags.of("other"), "fs0-n2"));
        state.add(new Container("y", Tags.of("other"), "fs0-n3"));
        ConstraintReason r = waiting(Placer.place(state, j)).reasons().get(0);
        assertThat(r.container()).isEqualTo("J.1");
        assertThat(r.nodesRuledOut()).isEqualTo(1);
        assertThat(r.text()).endsWith("rules out 1 of 1 nodes with a free slot (rack fs0/r0 holds 1 container tagged "
                + "{component=0, job=J}, which keeps {component=1, job=J} out of its rack)");
    }

    @Test
    void aNodeWithoutARackIsARackOfItsOwn() {
        // fs0-n0 in r0 holds c0; fs0-n1 declares no rack: it is not c0's rack, so c1 may go there.
        ClusterState state = new ClusterState(List.of(node("fs0", 0, 2, "r0"), node("fs0", 1, 1, null)));
        Tags c0 = Tags.of("job=J", "component=0");
        Tags c1 = Tags.of("job=J", "component=1");
        Request j = new Request("J", List.of(new Ask("J.0", c0), new Ask("J.1", c1)),
                List.of(new AntiAffinity(c0, c1, RACK, true)));
        // c0: fs0-n0 leaves 1, fs0-n1 leaves 0 -> fs0-n1; c1: fs0-n0 (r0) is not c0's group -> fs0-n0
        assertThat(placed(Placer.place(state, j)).placements()).containsExactly(at("J.0", "fs0-n1"), at("J.1", "fs0-n0"));
    }

    @Test
    void aSoftConstraintIsBrokenOnlyWhenNothingElseFitsAndCounted() {
        AntiAffinity soft = masterApartFromOrchestrator("A", Group.SITE, false);
        Request a = request("A", List.of(soft), ask("A", "master", -1), ask("A", "orchestrator", -1));

        // two sites: kept (master fs0-n0, by name; orchestrator on fs1-n0), nothing counted
        ConstraintDecision.Placed two = placed(Placer.place(grid(1, 2, "fs0", "fs1"), a));
        assertThat(two.placements()).containsExactly(at("A-master", "fs0-n0"), at("A-orchestrator", "fs1-n0"));
        assertThat(two.softViolations()).isZero();

        // one site: the orchestrator can only break it; placed anyway, the break counted once
        ConstraintDecision.Placed one = placed(Placer.place(grid(2, 2, "fs0"), a));
        assertThat(one.placements()).containsExactly(at("A-master", "fs0-n0"), at("A-orchestrator", "fs0-n0"));
        assertThat(one.softViolations()).isEqualTo(1);
        Violation v = one.violations().get(0);
        assertThat(v).isEqualTo(new Violation("A-orchestrator", soft, "fs0-n0", "fs0", "site fs0 holds 1 container "
                + "tagged {instance=A, role=master}, which keeps {instance=A, role=orchestrator} out of its site"));
    }

    @Test
    void aSoftBreakWeighsBeforeTheBestFit() {
        // soft: at most 1 of A's workers per host. fs0-n0 holds one (1 slot free: the best fit), fs0-n1 is empty
        // (4 free). The worker goes to fs0-n1: 0 soft breaks beat 1, however well fs0-n0 fits.
        ClusterState state = new ClusterState(List.of(node("fs0", 0, 2, null), node("fs0", 1, 4, null)));
        state.add(new Container("A-worker0", role("A", "worker"), "fs0-n0"));
        Cardinality onePerHost = new Cardinality(role("A", "worker"), role("A", "worker"), Group.HOST, 0, 1, false);
        ConstraintDecision.Placed p = placed(Placer.place(state, request("g", List.of(onePerHost), ask("A", "worker", 1))));
        assertThat(p.placements()).containsExactly(at("A-worker1", "fs0-n1"));
        assertThat(p.softViolations()).isZero();
    }

    @Test
    void theEmptiestSiteFirstThenTheFullestNodeOnIt() {
        // fs0-n0 (4 slots, 1 free), fs0-n1 (4 free): fs0 has 5 free; fs1-n0 (4 slots, 2 free): fs1 has 2.
        // First worker: fs0, the emptier site; on it fs0-n0 leaves 0 (best fit) -> fs0-n0.
        // Second: fs0 has 4 free, fs1 2 -> fs0 again, fs0-n1 (3 left), though fs1-n0 would fit better.
        ClusterState state = new ClusterState(List.of(node("fs0", 0, 4, null), node("fs0", 1, 4, null),
                node("fs1", 0, 4, null)));
        for (int i = 0; i < 3; i++) {
            state.add(new Container("x" + i, Tags.of("local"), "fs0-n0"));
        }
        for (int i = 3; i < 5; i++) {
            state.add(new Container("x" + i, Tags.of("local"), "fs1-n0"));
        }
        Request grow = request("g", List.of(), ask("A", "worker", 0), ask("A", "worker", 1));
        assertThat(placed(Placer.place(state, grow)).placements()).containsExactly(at("A-worker0", "fs0-n0"),
                at("A-worker1", "fs0-n1"));
    }

    @Test
    void noFreeSlotIsItsOwnReason() {
        ClusterState state = grid(1, 1, "fs0");
        ConstraintDecision.Waiting w = waiting(Placer.place(state, request("g", List.of(), ask("A", "worker", 0),
                ask("A", "worker", 1))));
        assertThat(w.reasons()).containsExactly(new ConstraintReason("A-worker1", ConstraintReason.Kind.NO_FREE_SLOT, null, 0,
                "A-worker1 {instance=A, role=worker}: no node has a free slot once the batch's other containers are "
                        + "placed (1 nodes, 1 slots)"));
    }

    @Test
    void theFirstOfItsKindMeetsAnAffinityToItsOwnKind() {
        // A's workers all on one site: the first has nothing to be near and goes anywhere (fs0-n0, best fit
        // by name); the second must join it on fs0 although fs1-n0 is as good a fit.
        ClusterState state = grid(1, 1, "fs0", "fs1");
        state.constrain("A", List.of(new Affinity(role("A", "worker"), role("A", "worker"), Group.SITE, true)));
        Request grow = request("g", List.of(), ask("A", "worker", 0));
        apply(state, grow);
        assertThat(state.container("A-worker0").node()).isEqualTo("fs0-n0");
        ClusterState wider = grid(2, 1, "fs0", "fs1");
        wider.constrain("A", state.constraints());
        wider.add(new Container("A-worker0", role("A", "worker"), "fs0-n1"));
        assertThat(placed(Placer.place(wider, request("g2", List.of(), ask("A", "worker", 1)))).placements())
                .containsExactly(at("A-worker1", "fs0-n0"));
    }

    @Test
    void inABatchWhatMustBeNearAnotherGoesAfterIt() {
        // B's workers must be on the site of A's master, which comes in the same batch, after B. The master is
        // placed first (level 0; the workers are level 1): fs0-n0; the workers follow it to fs0.
        ClusterState state = grid(2, 2, "fs0", "fs1");
        Affinity nearA = new Affinity(role("B", "worker"), role("A", "master"), Group.SITE, true);
        Request b = request("B", List.of(nearA), ask("B", "worker", 0), ask("B", "worker", 1), ask("B", "worker", 2));
        Request a = request("A", List.of(), ask("A", "master", -1));
        List<ConstraintDecision> ds = Placer.placeAll(state, List.of(b, a));
        assertThat(placed(ds.get(0)).placements()).containsExactly(at("B-worker0", "fs0-n0"), at("B-worker1", "fs0-n1"),
                at("B-worker2", "fs0-n1"));
        assertThat(placed(ds.get(1)).placements()).containsExactly(at("A-master", "fs0-n0"));
    }

    @Test
    void aBatchIsPlacedAgainWithoutARequestThatWaits() {
        // A asks for 5 containers on 4 slots: it waits. Placed alongside it, B's workers would have followed A's
        // tentative master; placed again without A, they wait too, for A's master, which runs nowhere.
        ClusterState state = grid(2, 1, "fs0", "fs1");
        Affinity nearA = new Affinity(role("B", "worker"), role("A", "master"), Group.SITE, true);
        Request a = request("A", List.of(), ask("A", "master", -1), ask("A", "worker", 0), ask("A", "worker", 1),
                ask("A", "worker", 2), ask("A", "worker", 3));
        Request b = request("B", List.of(nearA), ask("B", "worker", 0));
        List<ConstraintDecision> ds = Placer.placeAll(state, List.of(a, b));
        assertThat(waiting(ds.get(0)).reasons()).extracting(ConstraintReason::kind).containsExactly(ConstraintReason.Kind.NO_FREE_SLOT);
        assertThat(waiting(ds.get(1)).reasons().get(0).text()).endsWith("(no container tagged {instance=A, role=master} "
                + "runs anywhere)");
    }

    @Test
    void theSameStateGivesTheSameDecisionWhateverTheOrderOfItsNodes() {
        List<Node> nodes = List.of(node("fs1", 0, 2, null), node("fs0", 1, 2, null), node("fs0", 0, 2, null));
        Request a = request("A", List.of(masterApartFromOrchestrator("A", Group.SITE, true)), ask("A", "master", -1),
                ask("A", "orchestrator", -1));
        ConstraintDecision one = Placer.place(new ClusterState(nodes), a);
        ConstraintDecision other = Placer.place(new ClusterState(List.of(nodes.get(2), nodes.get(0), nodes.get(1))), a);
        assertThat(one).isEqualTo(other);
        assertThat(placed(one).placements()).containsExactly(at("A-master", "fs0-n0"), at("A-orchestrator", "fs1-n0"));
    }

    @Test
    void malformedRequestsWait() {
        ClusterState state = grid(1, 1, "fs0");
        assertThat(waiting(Placer.place(state, request("empty", List.of()))).reasons())
                .extracting(ConstraintReason::kind).containsExactly(ConstraintReason.Kind.MALFORMED);
        assertThat(waiting(Placer.place(state, request("twice", List.of(), ask("A", "worker", 0), ask("A", "worker", 0))))
                .reasons().get(0).text()).isEqualTo("request twice asks twice for A-worker0");
    }
}
