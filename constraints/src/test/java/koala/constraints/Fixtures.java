package koala.constraints;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import koala.constraints.Constraint.AntiAffinity;

/** Small grids and requests for the worked examples. */
final class Fixtures {
    static final Group RACK = Group.of("rack");

    private Fixtures() {
    }

    /** A node named SITE-nI on its site (and network "wan"), with a rack when {@code rack} is not null. */
    static Node node(String site, int i, int slots, String rack) {
        Map<Group, String> groups = new HashMap<>();
        groups.put(Group.SITE, site);
        groups.put(Group.NETWORK, "wan");
        if (rack != null) {
            groups.put(RACK, site + "/" + rack);
        }
        return new Node(site + "-n" + i, slots, groups);
    }

    /** {@code count} nodes of {@code slots} slots on each named site, no racks. */
    static ClusterState grid(int count, int slots, String... sites) {
        List<Node> nodes = new ArrayList<>();
        for (String s : sites) {
            for (int i = 0; i < count; i++) {
                nodes.add(node(s, i, slots, null));
            }
        }
        return new ClusterState(nodes);
    }

    /** {instance=I, role=R} */
    static Tags role(String instance, String role) {
        return Tags.of("instance=" + instance, "role=" + role);
    }

    static Ask ask(String instance, String role, int n) {
        return new Ask(instance + "-" + role + (n < 0 ? "" : n), role(instance, role));
    }

    static Request request(String id, List<Constraint> constraints, Ask... asks) {
        return new Request(id, Arrays.asList(asks), constraints);
    }

    static AntiAffinity masterApartFromOrchestrator(String instance, Group over, boolean hard) {
        return new AntiAffinity(role(instance, "master"), role(instance, "orchestrator"), over, hard);
    }

    static Placement at(String container, String node) {
        return new Placement(container, node);
    }

    static ConstraintDecision.Placed placed(ConstraintDecision d) {
        if (!(d instanceof ConstraintDecision.Placed p)) {
            throw new AssertionError("expected Placed, got " + d);
        }
        return p;
    }

    static ConstraintDecision.Waiting waiting(ConstraintDecision d) {
        if (!(d instanceof ConstraintDecision.Waiting w)) {
            throw new AssertionError("expected Waiting, got " + d);
        }
        return w;
    }

    /** Applies a placed request to the state, its constraints under the request's id. */
    static ConstraintDecision.Placed apply(ClusterState state, Request r) {
        ConstraintDecision.Placed p = placed(Placer.place(state, r));
        state.apply(r, p, r.id());
        return p;
    }
}
