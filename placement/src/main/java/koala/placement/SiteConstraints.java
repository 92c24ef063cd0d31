package koala.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import koala.constraints.ClusterState;
import koala.constraints.Constraint;
import koala.constraints.Container;
import koala.constraints.Group;
import koala.constraints.Node;
import koala.constraints.Placer;
import koala.constraints.Tags;
import koala.constraints.Violation;

/**
 * Places a job whose components carry placement constraints ({@code koala.constraints}): the
 * constraints decide which sites each component may use, and the job's own policy chooses among them.
 *
 * <p><b>Over sites.</b> KOALA chooses a node's site and SGE its host, so the constraints are kept at
 * the grain KOALA decides: each site is one node of a {@link ClusterState}, with its site and network
 * as groups; a kind finer than the site (host, an admin's rack) is a group of its own per site. An
 * upper bound over such a kind (anti-affinity, a cardinality's max) is then kept as if the whole site
 * were one group: sound (two components on different sites are on different hosts and racks), and
 * stricter than asked. A hard lower bound over such a kind is refused by the JDF parser; a soft one is
 * kept over the site. The nodes of the job and of running work are containers on their sites.
 *
 * <p><b>The decision.</b> Components are taken in the job's order, except that one whose lower bound
 * (affinity, cardinality with min above 0) targets another component of the job goes after it. For
 * each, every site of the view is tried by adding the component's nodes one by one
 * ({@link Placer#violations}): a site where one would break a hard constraint is ruled out; the others
 * are ranked by the soft constraints broken. The policy places the component alone on the sites that
 * break the fewest, then, if it finds no room there, on those that break at most the next count, and
 * so on; its nodes then count for the components after it. When every site with room is ruled out the
 * job waits, the reason ({@link PlacementReason.Kind#HARD_CONSTRAINT}) naming the constraint site by site.
 *
 * <p><b>A flexible job</b> (an allocation's grow) may be split over sites: a site is then ruled out only
 * when not one more node fits there, and offered to the policy with at most as many idle nodes as fit
 * there without breaking a hard constraint ({@link #room} counts them over the grid).
 * Pure: no I/O, no clock.
 */
public final class SiteConstraints implements PlacementPolicy {
    private static final int SLOTS = 1_000_000;
    private final PlacementPolicy policy;
    private final Function<String, String> networkOf;
    private final Map<Integer, Tags> tags;
    private final List<Constraint> constraints;
    private final List<Container> running;
    private final List<Constraint> inForce;

    /**
     * @param tags        each component's tags, by its index (job=, component=... included)
     * @param constraints the job's constraints, each about one of its components (the subject)
     * @param running     the nodes of running work, each a container whose node is its site
     * @param inForce     the constraints of running work, kept for this job's nodes too
     */
    public SiteConstraints(PlacementPolicy policy, Function<String, String> networkOf, Map<Integer, Tags> tags,
                           List<Constraint> constraints, List<Container> running, List<Constraint> inForce) {
        this.policy = policy;
        this.networkOf = networkOf;
        this.tags = Map.copyOf(tags);
        this.constraints = List.copyOf(constraints);
        this.running = List.copyOf(running);
        this.inForce = List.copyOf(inForce);
    }

    /**
     * The same, with {@code placed} (nodes a decision has just placed for this job and not yet claimed)
     * counted as running, each tagged as its component: a later part of the same decision is then checked
     * together with them, not as if they were not there.
     */
    public SiteConstraints withPlaced(List<Assignment> placed) {
        List<Container> more = new ArrayList<>(running);
        for (Assignment a : placed) {
            Tags own = tags.getOrDefault(a.component(), Tags.of("component=" + a.component()));
            for (int k = 0; k < a.nodes(); k++) {
                more.add(new Container("placed/" + a.component() + "/" + a.site() + "/" + more.size(), own, a.site()));
            }
        }
        return new SiteConstraints(policy, networkOf, tags, constraints, more, inForce);
    }

    @Override
    public String name() {
        return policy.name();
    }

    @Override
    public PlacementDecision place(JobNeed job, GridView grid) {
        ClusterState state = state(grid);
        Map<String, Integer> idle = new HashMap<>();
        grid.sites().forEach(s -> idle.put(s.site(), s.idleNodes()));
        List<Assignment> assignments = new ArrayList<>();
        List<String> soft = new ArrayList<>();
        for (ComponentNeed c : order(job.components())) {
            Tags own = tags.getOrDefault(c.index(), Tags.of("component=" + c.index()));
            Map<String, Trial> trials = new java.util.TreeMap<>();
            for (SiteView s : grid.sites()) {
                trials.put(s.site(), trial(state, job.jobId() + "/" + c.index(), own, s.site(), c.nodes()));
            }
            boolean flexible = job.flexible();
            List<String> allowed = trials.entrySet().stream().filter(e -> e.getValue().allows(flexible))
                    .map(Map.Entry::getKey).toList();
            if (allowed.isEmpty()) {
                return new PlacementDecision.NotPlaced(List.of(ruledOut(c, trials)));
            }
            PlacementDecision.Placed placed = null;
            PlacementDecision.NotPlaced last = null;
            for (int level : allowed.stream().map(s -> trials.get(s).soft.size()).collect(Collectors.toCollection(TreeSet::new))) {
                List<SiteView> sites = grid.sites().stream().filter(s -> allowed.contains(s.site())
                        && trials.get(s.site()).soft.size() <= level)
                        .map(s -> new SiteView(s.site(), s.totalNodes(), flexible
                                ? Math.min(idle.get(s.site()), trials.get(s.site()).fits) : idle.get(s.site()))).toList();
                PlacementDecision d = policy.place(new JobNeed(job.jobId(), List.of(c), job.flexible()), new GridView(sites, grid.files()));
                if (d instanceof PlacementDecision.Placed p) {
                    placed = p;
                    break;
                }
                last = (PlacementDecision.NotPlaced) d;
            }
            if (placed == null) {
                String label = "on the sites its constraints allow (" + String.join(", ", allowed) + ")";
                return new PlacementDecision.NotPlaced(last.reasons().stream()
                        .map(r -> new PlacementReason(r.component(), r.kind(), label + ": " + r.text())).toList());
            }
            for (Assignment a : placed.assignments()) {
                assignments.add(a);
                idle.merge(a.site(), -a.nodes(), Integer::sum);
                Set<String> broken = new LinkedHashSet<>();
                for (int k = 0; k < a.nodes(); k++) {
                    String id = job.jobId() + "/" + c.index() + "/" + a.site() + "/" + k;
                    for (Violation v : Placer.violations(state, id, own, a.site(), constraints)) {
                        if (v.constraint().hard()) {
                            // nodes split over sites of one network may together break a bound over the network
                            return new PlacementDecision.NotPlaced(List.of(new PlacementReason(c.index(), PlacementReason.Kind.HARD_CONSTRAINT,
                                    "component " + c.index() + " (" + c.nodes() + " nodes) split over sites would "
                                    + "break " + v.constraint().describe() + " (" + v.text() + ")")));
                        }
                        broken.add("component " + c.index() + " on " + a.site() + ": "
                                + v.constraint().describe() + " broken (" + v.text() + ")");
                    }
                    state.add(new Container(id, own, a.site()));
                }
                soft.addAll(broken);
            }
        }
        assignments.sort(Comparator.comparingInt(Assignment::component));
        return new PlacementDecision.Placed(assignments, soft);
    }

    /**
     * What adding {@code nodes} containers tagged {@code own} to {@code site} breaks: the first hard
     * constraint (null if none), the soft ones, and how many fit before the hard one.
     */
    private record Trial(Violation hard, Set<Constraint> soft, int fits) {
        /** A rigid component goes on the site whole or not at all; a flexible one as long as a node fits. */
        boolean allows(boolean flexible) {
            return flexible ? fits > 0 : hard == null;
        }
    }

    private Trial trial(ClusterState state, String id, Tags own, String site, int nodes) {
        List<String> added = new ArrayList<>();
        Set<Constraint> soft = new LinkedHashSet<>();
        Violation hard = null;
        int fits = 0;
        try {
            for (int k = 0; k < nodes && hard == null; k++) {
                Set<Constraint> broken = new LinkedHashSet<>();
                for (Violation v : Placer.violations(state, id + "#" + k, own, site, constraints)) {
                    if (v.constraint().hard()) {
                        hard = v;
                        break;
                    }
                    broken.add(v.constraint());
                }
                if (hard == null) {
                    soft.addAll(broken);
                    fits++;
                }
                state.add(new Container(id + "#" + k, own, site));
                added.add(id + "#" + k);
            }
        } finally {
            added.forEach(state::remove);
        }
        return new Trial(hard, soft, fits);
    }

    /**
     * How many of a flexible component's nodes the grid takes now, keeping every hard constraint: over
     * the sites, the fewer of its idle nodes and of the nodes that fit there before one would break a
     * hard constraint ({@code nodes} at most); and, when hard constraints hold it below {@code nodes}
     * nodes although more are idle, why, site by site ({@link PlacementReason.Kind#HARD_CONSTRAINT}).
     *
     * @param limit null when the hard constraints cost it nothing
     */
    public record Room(int nodes, PlacementReason limit) {
    }

    public Room room(ComponentNeed c, GridView grid) {
        ClusterState state = state(grid);
        Tags own = tags.getOrDefault(c.index(), Tags.of("component=" + c.index()));
        int room = 0;
        int idle = 0;
        List<String> why = new ArrayList<>();
        for (SiteView s : grid.sites()) {
            Trial t = trial(state, "room/" + c.index(), own, s.site(), Math.min(c.nodes(), s.idleNodes()));
            room += Math.min(s.idleNodes(), t.fits);
            idle += s.idleNodes();
            if (t.hard != null) {
                why.add(s.site() + (t.fits == 0 ? "" : " (" + t.fits + " of " + s.idleNodes() + " idle)") + ": "
                        + t.hard.constraint().describe() + " (" + t.hard.text() + ")");
            }
        }
        int nodes = Math.min(c.nodes(), room);
        if (nodes == c.nodes() || why.isEmpty() || nodes == Math.min(c.nodes(), idle)) {
            return new Room(nodes, null);
        }
        return new Room(nodes, new PlacementReason(c.index(), PlacementReason.Kind.HARD_CONSTRAINT, (nodes == 0 ? "no site may take "
                + "one more" : "the sites may take " + nodes + " more, not " + c.nodes()) + " keeping the hard "
                + "constraints: " + String.join("; ", why)));
    }

    private PlacementReason ruledOut(ComponentNeed c, Map<String, Trial> trials) {
        String why = trials.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().hard.constraint().describe()
                + " (" + e.getValue().hard.text() + ")").collect(Collectors.joining("; "));
        return new PlacementReason(c.index(), PlacementReason.Kind.HARD_CONSTRAINT, "component " + c.index() + " (" + c.nodes()
                + " nodes) may go on no site: " + (trials.isEmpty() ? "no site is up" : why));
    }

    /** The job's order, a component whose lower bound targets another of the job's after that one. */
    private List<ComponentNeed> order(List<ComponentNeed> components) {
        List<ComponentNeed> left = new ArrayList<>(components);
        List<ComponentNeed> out = new ArrayList<>();
        while (!left.isEmpty()) {
            ComponentNeed next = left.stream().filter(c -> left.stream().noneMatch(o -> o != c && leansOn(c, o)))
                    .findFirst().orElse(left.get(0));
            out.add(next);
            left.remove(next);
        }
        return out;
    }

    private boolean leansOn(ComponentNeed c, ComponentNeed other) {
        Tags mine = tags.get(c.index());
        Tags theirs = tags.get(other.index());
        return mine != null && theirs != null && constraints.stream().anyMatch(k -> k.min() > 0
                && mine.carries(k.subject()) && theirs.carries(k.target()) && !mine.carries(k.target()));
    }

    private ClusterState state(GridView grid) {
        Set<String> sites = new TreeSet<>();
        grid.sites().forEach(s -> sites.add(s.site()));
        running.forEach(c -> sites.add(c.node()));
        List<Node> nodes = sites.stream().map(s -> new Node(s, SLOTS, Map.of(Group.SITE, s,
                Group.NETWORK, networkOf.apply(s)))).toList();
        ClusterState state = new ClusterState(nodes);
        running.forEach(state::add);
        state.constrain("running", inForce);
        return state;
    }
}
