package koala.constraints;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Random small clusters: the rules' yes/no and their words agree; the placer never breaks an upper bound. */
class RandomStatesTest {
    private static final List<String> TAGS = List.of("a", "b", "c");
    private static final List<Group> GROUPS = List.of(Group.HOST, Group.SITE, Fixtures.RACK);

    private static Tags someTags(Random r) {
        List<String> t = new ArrayList<>();
        for (String s : TAGS) {
            if (r.nextBoolean()) {
                t.add(s);
            }
        }
        return t.isEmpty() ? Tags.of(TAGS.get(r.nextInt(TAGS.size()))) : Tags.of(t);
    }

    /** With {@code own} added to the subject tags when it is not null (a request's constraints are about its own). */
    private static Constraint someConstraint(Random r, boolean upperOnly, String own) {
        Tags s = someTags(r);
        if (own != null) {
            List<String> t = new ArrayList<>(s.values());
            t.add(own);
            s = Tags.of(t);
        }
        Tags t = someTags(r);
        Group g = GROUPS.get(r.nextInt(GROUPS.size()));
        boolean hard = upperOnly || r.nextBoolean();
        return switch (upperOnly ? 1 + r.nextInt(2) : r.nextInt(3)) {
            case 0 -> new Constraint.Affinity(s, t, g, hard);
            case 1 -> new Constraint.AntiAffinity(s, t, g, hard);
            default -> {
                int min = upperOnly ? 0 : r.nextInt(3);
                yield new Constraint.Cardinality(s, t, g, min, min + r.nextInt(3), hard);
            }
        };
    }

    private static ClusterState cluster() {
        List<Node> nodes = new ArrayList<>();
        for (String site : List.of("fs0", "fs1")) {
            for (int i = 0; i < 4; i++) {
                nodes.add(Fixtures.node(site, i, 3, i < 2 ? "r0" : "r1"));
            }
        }
        return new ClusterState(nodes);
    }

    @Test
    void theYesOrNoAndTheWordsAgree() {
        Random r = new Random(7);
        for (int round = 0; round < 300; round++) {
            ClusterState state = cluster();
            for (int c = 0; c < r.nextInt(12); c++) {
                int node = r.nextInt(state.nodes().size());
                if (state.free(node) > 0) {
                    state.add(new Container("c" + c, someTags(r), state.nodes().get(node).name()));
                }
            }
            Constraint k = someConstraint(r, false, null);
            Scratch.Counts counts = new Scratch(state).counts(k);
            Tags tags = someTags(r);
            for (Node n : state.nodes()) {
                boolean keeps = Rules.keeps(k, counts, tags.carries(k.subject()), tags.carries(k.target()), n);
                assertThat(Rules.explain(k, counts, tags, n) == null).as(k + " " + tags + " on " + n.name()).isEqualTo(keeps);
            }
        }
    }

    @Test
    void placedRequestsNeverBreakAHardUpperBound() {
        Random r = new Random(11);
        int placed = 0;
        for (int round = 0; round < 100; round++) {
            ClusterState state = cluster();
            for (int q = 0; q < 8; q++) {
                List<Ask> asks = new ArrayList<>();
                for (int a = 0; a < 1 + r.nextInt(3); a++) {
                    List<String> t = new ArrayList<>(someTags(r).values());
                    t.add("r" + q);
                    asks.add(new Ask("r" + q + "." + a, Tags.of(t)));
                }
                Request req = new Request("r" + q, asks, List.of(someConstraint(r, true, "r" + q)));
                if (Placer.place(state, req) instanceof ConstraintDecision.Placed p) {
                    state.apply(req, p, req.id());
                    placed++;
                }
                assertThat(Audit.check(state)).as("round " + round + " request " + q).isEmpty();
            }
        }
        assertThat(placed).isGreaterThan(300);
    }
}
