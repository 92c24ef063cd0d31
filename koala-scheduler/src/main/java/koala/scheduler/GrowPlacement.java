package koala.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import koala.placement.Assignment;
import koala.placement.ComponentNeed;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.PlacementDecision;
import koala.placement.PlacementPolicy;
import koala.placement.PlacementReason;
import koala.placement.SiteConstraints;
import koala.placement.SiteView;

/**
 * Where a grow's nodes go: a grow is one flexible component of N nodes, placed by the allocation's own
 * placement policy ({@link JobPolicies#forGrow}, the same choice a job's placement makes) on the view it is
 * given. With hard placement constraints ({@link SiteConstraints}) the nodes are first cut down to what they
 * let in ({@link SiteConstraints#room}), the constraint that cut them kept as the limit. Pure: no book, no
 * clock.
 */
final class GrowPlacement {
    private GrowPlacement() {
    }

    /**
     * Where part of a grow goes; when the hard placement constraints let fewer in than it was given, the one
     * that stopped it (null for none); the soft constraints broken because nothing else fitted.
     */
    record Placing(List<Assignment> assignments, PlacementReason limit, List<String> softViolations) {
        static final Placing NONE = new Placing(List.of(), null);

        Placing {
            assignments = List.copyOf(assignments);
            softViolations = List.copyOf(softViolations);
        }

        Placing(List<Assignment> assignments, PlacementReason limit) {
            this(assignments, limit, List.of());
        }

        int nodes() {
            return assignments.stream().mapToInt(Assignment::nodes).sum();
        }
    }

    /** {@code nodes} of a grow on the idle nodes of {@code view}, as many as the hard constraints let in. */
    static Placing onIdle(long id, PlacementPolicy policy, int nodes, GridView view) {
        return onIdle(id, policy, nodes, koala.placement.Resources.NODE, view);
    }

    /**
     * How many nodes of {@code perNode} the view has room for now: on a site whose hosts it knows, the
     * sum over its hosts of how many fit in each host's free resources; elsewhere its idle nodes.
     */
    static int room(GridView view, koala.placement.Resources perNode) {
        long room = 0;
        for (SiteView s : view.sites()) {
            room += s.hosts().isEmpty() ? Math.max(0, s.idleNodes())
                    : s.hosts().stream().mapToLong(h -> h.free().count(perNode)).sum();
        }
        return (int) Math.min(Integer.MAX_VALUE, room);
    }

    /** As above, each node asking for {@code perNode} (placed host by host where the view knows the hosts). */
    static Placing onIdle(long id, PlacementPolicy policy, int nodes, koala.placement.Resources perNode, GridView view) {
        if (nodes <= 0) {
            return Placing.NONE;
        }
        PlacementReason limit = null;
        if (policy instanceof SiteConstraints kept) {
            SiteConstraints.Room room = kept.room(need(nodes), view);
            limit = room.limit();
            if (room.nodes() == 0) {
                return new Placing(List.of(), limit);
            }
            nodes = room.nodes();
        }
        return placed(id, policy, nodes, perNode, view, limit);
    }

    /**
     * {@code nodes} of a grant in the slots of the nodes just ended for it (on {@code sites}, one per ended
     * node), whose sites take them in turn. With constraints, a site takes only what keeps the hard ones
     * together with the nodes {@code onIdle} placed in the same grant, and with each other: the turns give
     * each site its slots, and the constraints cut them down ({@link SiteConstraints#room} over those slots).
     */
    static Placing inSlots(long id, PlacementPolicy policy, int nodes, List<String> sites, List<Assignment> onIdle,
                           FileLocations files) {
        if (nodes <= 0 || sites.isEmpty()) {
            return Placing.NONE;
        }
        List<Assignment> turns = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            turns.add(new Assignment(0, sites.get(i % sites.size()), 1));
        }
        if (!(policy instanceof SiteConstraints kept)) {
            return new Placing(turns, null);
        }
        Map<String, Integer> slots = new LinkedHashMap<>();
        turns.forEach(t -> slots.merge(t.site(), 1, Integer::sum));
        GridView coming = new GridView(slots.entrySet().stream().map(e -> new SiteView(e.getKey(), e.getValue(),
                e.getValue())).toList(), files);
        SiteConstraints together = kept.withPlaced(onIdle);
        SiteConstraints.Room room = together.room(need(nodes), coming);
        if (room.nodes() == 0) {
            return new Placing(List.of(), room.limit());
        }
        return placed(id, together, room.nodes(), coming, room.limit());
    }

    /**
     * Why no site of {@code reach} could take one more of the allocation's nodes keeping the hard constraints,
     * were a node free on each: none when one could, or when nothing has a constraint.
     */
    static Optional<PlacementReason> nowhere(PlacementPolicy policy, GridView reach) {
        if (!(policy instanceof SiteConstraints kept)) {
            return Optional.empty();
        }
        GridView oneFree = new GridView(reach.sites().stream().map(s -> new SiteView(s.site(), s.totalNodes(),
                Math.min(1, s.totalNodes()))).toList(), reach.files());
        SiteConstraints.Room room = kept.room(need(1), oneFree);
        return room.nodes() == 0 ? Optional.ofNullable(room.limit()) : Optional.empty();
    }

    /** {@code nodes} placed by {@code policy} on {@code view}; none, and why, when it cannot. */
    private static Placing placed(long id, PlacementPolicy policy, int nodes, GridView view, PlacementReason limit) {
        return placed(id, policy, nodes, koala.placement.Resources.NODE, view, limit);
    }

    private static Placing placed(long id, PlacementPolicy policy, int nodes, koala.placement.Resources perNode,
                                  GridView view, PlacementReason limit) {
        PlacementDecision d = policy.place(new JobNeed(Long.toString(id), List.of(new ComponentNeed(0, nodes, null,
                List.of(), perNode)), true), view);
        if (d instanceof PlacementDecision.Placed p) {
            return new Placing(p.assignments(), limit, p.softViolations());
        }
        List<PlacementReason> why = ((PlacementDecision.NotPlaced) d).reasons();
        return new Placing(List.of(), new PlacementReason(0, why.isEmpty() ? PlacementReason.Kind.HARD_CONSTRAINT
                : why.get(0).kind(), why.stream().map(PlacementReason::text).collect(Collectors.joining("; "))));
    }

    private static ComponentNeed need(int nodes) {
        return new ComponentNeed(0, nodes, null, List.of());
    }
}
