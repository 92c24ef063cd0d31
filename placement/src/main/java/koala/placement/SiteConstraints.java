package koala.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
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
 * <p><b>Over sites.</b> Each site is one node of a {@link ClusterState}, with its site and network as
 * groups; a kind finer than the site (host, an admin's rack) is a group of its own per site. An upper
 * bound over such a kind (anti-affinity, a cardinality's max) is then kept as if the whole site were one
 * group: sound (two components on different sites are on different hosts and racks), and stricter than
 * asked. A hard lower bound over such a kind is refused by the JDF parser; a soft one is kept over the
 * site. The nodes of the job and of running work are containers on their sites.
 *
 * <p><b>On hosts</b> ({@link #onHosts}). When a constraint in play is over a finer kind, a site whose
 * view knows its idle hosts ({@link SiteView#idleHosts}) is a node per host instead, with the admin's
 * groups; running work whose host is known is on its host. Each node placed there goes to the host that
 * breaks no hard constraint and the fewest soft ones, then to the one whose groups hold most of its
 * component already (a component keeps to few racks), then by name; the decision names the hosts
 * ({@link Assignment#hosts}) and the scheduler pins the pilots to them.
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
    /** A host's slots as the state sees them: what a decision may use is counted by the view's idle hosts. */
    private static final int HOST_SLOTS = 10_000;
    private final PlacementPolicy policy;
    private final Function<String, String> networkOf;
    private final Map<Integer, Tags> tags;
    private final List<Constraint> constraints;
    private final List<Container> running;
    private final List<Constraint> inForce;
    /** Where running work is and the admin's groups of a host; null: every kind is kept over sites. */
    private final Hosts hosts;

    /**
     * What placing on hosts needs: the host of each running container whose host is known (by id; a
     * node whose pilot has not started yet, unpinned, has none), and the groups an admin declared for a
     * host of a site (its rack, upgrade domain...).
     */
    public record Hosts(Map<String, String> ofRunning, BiFunction<String, String, Map<Group, String>> groupsOf) {
        public Hosts {
            ofRunning = Map.copyOf(ofRunning);
        }
    }

    /**
     * @param tags        each component's tags, by its index (job=, component=... included)
     * @param constraints the job's constraints, each about one of its components (the subject)
     * @param running     the nodes of running work, each a container whose node is its site
     * @param inForce     the constraints of running work, kept for this job's nodes too
     */
    public SiteConstraints(PlacementPolicy policy, Function<String, String> networkOf, Map<Integer, Tags> tags,
                           List<Constraint> constraints, List<Container> running, List<Constraint> inForce) {
        this(policy, networkOf, tags, constraints, running, inForce, null);
    }

    private SiteConstraints(PlacementPolicy policy, Function<String, String> networkOf, Map<Integer, Tags> tags,
                            List<Constraint> constraints, List<Container> running, List<Constraint> inForce,
                            Hosts hosts) {
        this.policy = policy;
        this.networkOf = networkOf;
        this.tags = Map.copyOf(tags);
        this.constraints = List.copyOf(constraints);
        this.running = List.copyOf(running);
        this.inForce = List.copyOf(inForce);
        this.hosts = hosts;
    }

    /**
     * The same, choosing hosts where a constraint is over a kind finer than the site (host, an admin's
     * rack) and the view knows a site's idle hosts: each node of such a decision is pinned to its host
     * ({@link Assignment#hosts}), and the constraint is kept per host or rack, not per site.
     */
    public SiteConstraints onHosts(Hosts where) {
        return new SiteConstraints(policy, networkOf, tags, constraints, running, inForce, where);
    }

    /**
     * The same, with {@code placed} (nodes a decision has just placed for this job and not yet claimed)
     * counted as running, each tagged as its component: a later part of the same decision is then checked
     * together with them, not as if they were not there.
     */
    public SiteConstraints withPlaced(List<Assignment> placed) {
        List<Container> more = new ArrayList<>(running);
        Map<String, String> at = hosts == null ? new HashMap<>() : new HashMap<>(hosts.ofRunning());
        for (Assignment a : placed) {
            Tags own = tags.getOrDefault(a.component(), Tags.of("component=" + a.component()));
            for (int k = 0; k < a.nodes(); k++) {
                String id = "placed/" + a.component() + "/" + a.site() + "/" + more.size();
                more.add(new Container(id, own, a.site()));
                if (a.host(k) != null) {
                    at.put(id, a.host(k));
                }
            }
        }
        return new SiteConstraints(policy, networkOf, tags, constraints, more, inForce,
                hosts == null ? null : new Hosts(at, hosts.groupsOf()));
    }

    @Override
    public String name() {
        return policy.name();
    }

    @Override
    public PlacementDecision place(JobNeed job, GridView grid) {
        Layout layout = layout(grid);
        ClusterState state = layout.state;
        Map<String, Integer> idle = new HashMap<>();
        grid.sites().forEach(s -> idle.put(s.site(), layout.capacity(s)));
        Map<String, Map<String, HostView>> hostsLeft = hostsLeft(grid);
        List<Assignment> assignments = new ArrayList<>();
        List<String> soft = new ArrayList<>();
        for (ComponentNeed c : order(job.components())) {
            layout.focus(hostsLeft, c.perNode());
            Tags own = tags.getOrDefault(c.index(), Tags.of("component=" + c.index()));
            Map<String, Trial> trials = new java.util.TreeMap<>();
            for (SiteView s : grid.sites()) {
                trials.put(s.site(), trial(layout, job.jobId() + "/" + c.index(), own, s.site(), c.nodes()));
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
                                ? Math.min(idle.get(s.site()), trials.get(s.site()).fits) : idle.get(s.site()),
                                s.idleHosts(), hostsOf(hostsLeft, s.site()))).toList();
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
                idle.merge(a.site(), -a.nodes(), Integer::sum);
                Set<String> broken = new LinkedHashSet<>();
                List<String> pinned = new ArrayList<>();
                for (int k = 0; k < a.nodes(); k++) {
                    String id = job.jobId() + "/" + c.index() + "/" + a.site() + "/" + k;
                    Pick pick = layout.pick(id, own, a.site());
                    if (pick.node() == null) {
                        return new PlacementDecision.NotPlaced(List.of(new PlacementReason(c.index(),
                                PlacementReason.Kind.HARD_CONSTRAINT, "component " + c.index() + ": no idle host of "
                                + a.site() + " left for its node " + (k + 1) + " of " + a.nodes())));
                    }
                    for (Violation v : Placer.violations(state, id, own, pick.node(), constraints)) {
                        if (v.constraint().hard()) {
                            // nodes split over sites of one network may together break a bound over the network
                            return new PlacementDecision.NotPlaced(List.of(new PlacementReason(c.index(), PlacementReason.Kind.HARD_CONSTRAINT,
                                    "component " + c.index() + " (" + c.nodes() + " nodes) split over sites would "
                                    + "break " + v.constraint().describe() + " (" + v.text() + ")")));
                        }
                        broken.add("component " + c.index() + " on " + pick.node() + ": "
                                + v.constraint().describe() + " broken (" + v.text() + ")");
                    }
                    layout.take(new Container(id, own, pick.node()));
                    if (!pick.node().equals(a.site())) {
                        pinned.add(pick.node());
                    }
                    String host = pick.node().equals(a.site()) ? a.host(k) : pick.node();
                    if (host != null && hostsLeft.containsKey(a.site())) {
                        hostsLeft.get(a.site()).computeIfPresent(host, (h, v) -> new HostView(h, v.total(),
                                v.free().fits(c.perNode()) ? v.free().minus(c.perNode()) : Resources.NONE));
                    }
                }
                assignments.add(pinned.isEmpty() ? a : new Assignment(a.component(), a.site(), a.nodes(), pinned));
                soft.addAll(broken);
            }
        }
        assignments.sort(Comparator.comparingInt(Assignment::component));
        return new PlacementDecision.Placed(assignments, soft);
    }

    /**
     * The free resources of each host of the sites whose hosts the view knows, by site and host: what
     * the job's earlier components took is taken off them as the decision goes on, so that the policy
     * and the choice of hosts count a later component against what is left.
     */
    private static Map<String, Map<String, HostView>> hostsLeft(GridView grid) {
        Map<String, Map<String, HostView>> left = new HashMap<>();
        for (SiteView s : grid.sites()) {
            if (!s.hosts().isEmpty()) {
                Map<String, HostView> hosts = new java.util.LinkedHashMap<>();
                s.hosts().forEach(h -> hosts.put(h.host(), h));
                left.put(s.site(), hosts);
            }
        }
        return left;
    }

    private static List<HostView> hostsOf(Map<String, Map<String, HostView>> hostsLeft, String site) {
        Map<String, HostView> hosts = hostsLeft.get(site);
        return hosts == null ? List.of() : List.copyOf(hosts.values());
    }

    /**
     * What adding {@code nodes} containers tagged {@code own} to {@code site} breaks: the first hard
     * constraint (null if none), the soft ones, and how many fit before the hard one (or before the
     * site's idle hosts run out, placing on hosts).
     */
    private record Trial(Violation hard, Set<Constraint> soft, int fits) {
        /** A rigid component goes on the site whole or not at all; a flexible one as long as a node fits. */
        boolean allows(boolean flexible) {
            return flexible ? fits > 0 : hard == null;
        }
    }

    /**
     * Where one more container goes on a site: {@code node} (a host, or the site itself when its hosts
     * are not chosen), the hard constraint it breaks there (null if none) and the soft ones; no node
     * when the site has no idle host left.
     */
    private record Pick(String node, Violation hard, Set<Constraint> soft) {
    }

    private Trial trial(Layout layout, String id, Tags own, String site, int nodes) {
        List<Container> added = new ArrayList<>();
        Set<Constraint> soft = new LinkedHashSet<>();
        Violation hard = null;
        int fits = 0;
        try {
            for (int k = 0; k < nodes; k++) {
                Pick pick = layout.pick(id + "#" + k, own, site);
                if (pick.node() == null || pick.hard() != null) {
                    hard = pick.hard();
                    break;
                }
                soft.addAll(pick.soft());
                fits++;
                Container c = new Container(id + "#" + k, own, pick.node());
                layout.take(c);
                added.add(c);
            }
        } finally {
            added.forEach(layout::giveBack);
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
        Layout layout = layout(grid);
        Tags own = tags.getOrDefault(c.index(), Tags.of("component=" + c.index()));
        int room = 0;
        int idle = 0;
        List<String> why = new ArrayList<>();
        List<String> full = new ArrayList<>();
        for (SiteView s : grid.sites()) {
            Trial t = trial(layout, "room/" + c.index(), own, s.site(), Math.min(c.nodes(), s.idleNodes()));
            room += Math.min(s.idleNodes(), t.fits);
            idle += s.idleNodes();
            if (t.hard != null) {
                why.add(s.site() + (t.fits == 0 ? "" : " (" + t.fits + " of " + s.idleNodes() + " idle)") + ": "
                        + t.hard.constraint().describe() + " (" + t.hard.text() + ")");
            } else if (s.idleNodes() == 0) {
                full.add(s.site());
            }
        }
        int nodes = Math.min(c.nodes(), room);
        if (nodes == c.nodes() || why.isEmpty() || nodes == Math.min(c.nodes(), idle)) {
            return new Room(nodes, null);
        }
        // the sites the constraints leave but that are full are named too: freeing them would let the nodes in
        return new Room(nodes, new PlacementReason(c.index(), PlacementReason.Kind.HARD_CONSTRAINT, (nodes == 0 ? "no site may take "
                + "one more" : "the sites may take " + nodes + " more, not " + c.nodes()) + " keeping the hard "
                + "constraints: " + String.join("; ", why) + (full.isEmpty() ? "" : "; " + String.join(", ", full)
                + ": no idle node")));
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

    /** The admin's kinds (rack, upgrade domain...) the constraints in play are over: neither host, site nor network. */
    private List<Group> finerKinds() {
        return java.util.stream.Stream.concat(constraints.stream(), inForce.stream()).map(Constraint::group)
                .filter(g -> !g.equals(Group.HOST) && !g.equals(Group.SITE) && !g.equals(Group.NETWORK))
                .distinct().toList();
    }

    /** Whether a constraint in play is over a kind finer than the site, which only a choice of hosts keeps. */
    private boolean finer() {
        return java.util.stream.Stream.concat(constraints.stream(), inForce.stream())
                .anyMatch(k -> !k.group().equals(Group.SITE) && !k.group().equals(Group.NETWORK));
    }

    /**
     * The state a decision builds: a node per site (its containers whose host is unknown, and every
     * container when hosts are not chosen) and, placing on hosts, a node per host known (idle, or
     * holding running work), with its site, network and the admin's groups.
     */
    private Layout layout(GridView grid) {
        boolean byHost = hosts != null && finer();
        Set<String> sites = new TreeSet<>();
        grid.sites().forEach(s -> sites.add(s.site()));
        running.forEach(c -> sites.add(c.node()));
        Map<String, Node> nodes = new HashMap<>(); // the state sorts them by name
        sites.forEach(s -> nodes.put(s, new Node(s, SLOTS, Map.of(Group.SITE, s, Group.NETWORK, networkOf.apply(s)))));
        Map<String, Map<String, Integer>> hostIdle = new HashMap<>();
        Map<String, String> siteOfHost = new HashMap<>();
        if (byHost) {
            for (SiteView s : grid.sites()) {
                if (!s.idleHosts().isEmpty()) {
                    hostIdle.put(s.site(), new java.util.TreeMap<>(s.idleHosts()));
                    s.idleHosts().keySet().forEach(h -> {
                        nodes.putIfAbsent(h, hostNode(s.site(), h));
                        siteOfHost.put(h, s.site());
                    });
                }
            }
            running.forEach(c -> {
                String h = hosts.ofRunning().get(c.id());
                if (h != null) {
                    nodes.putIfAbsent(h, hostNode(c.node(), h));
                }
            });
        }
        ClusterState state = new ClusterState(nodes.values());
        running.forEach(c -> state.add(byHost ? new Container(c.id(), c.tags(),
                hosts.ofRunning().getOrDefault(c.id(), c.node())) : c));
        state.constrain("running", inForce);
        return new Layout(state, hostIdle, siteOfHost);
    }

    private Node hostNode(String site, String host) {
        Map<Group, String> declared = hosts.groupsOf().apply(site, host);
        if (declared.isEmpty()) {
            return new Node(host, HOST_SLOTS, Map.of(Group.SITE, site, Group.NETWORK, networkOf.apply(site)));
        }
        Map<Group, String> groups = new HashMap<>(declared);
        groups.put(Group.SITE, site);
        groups.put(Group.NETWORK, networkOf.apply(site));
        return new Node(host, HOST_SLOTS, groups);
    }

    /** The state a decision builds, and, placing on hosts, the idle nodes left per host of each site whose hosts are known. */
    private final class Layout {
        private final ClusterState state;
        private final Map<String, Map<String, Integer>> hostIdle;
        private final Map<String, String> siteOfHost;

        Layout(ClusterState state, Map<String, Map<String, Integer>> hostIdle, Map<String, String> siteOfHost) {
            this.state = state;
            this.hostIdle = hostIdle;
            this.siteOfHost = siteOfHost;
        }

        /** The site's idle nodes a decision may use: those on its idle hosts too, when it chooses them. */
        int capacity(SiteView s) {
            Map<String, Integer> onHosts = hostIdle.get(s.site());
            return onHosts == null ? s.idleNodes()
                    : Math.min(s.idleNodes(), onHosts.values().stream().mapToInt(Integer::intValue).sum());
        }

        /**
         * The node for one more container on {@code site}: the site itself when its hosts are not chosen;
         * otherwise its idle host that breaks no hard constraint and the fewest soft ones (ties by name), or
         * the first idle host with the hard constraint it breaks when each breaks one.
         */
        Pick pick(String id, Tags own, String site) {
            Map<String, Integer> onHosts = hostIdle.get(site);
            if (onHosts == null) {
                return judge(id, own, site);
            }
            Map<String, Integer> near = near(own);
            boolean packs = !finerKinds().isEmpty(); // else the first host breaking nothing is as good as any
            Pick best = null;
            int bestNear = -1;
            Pick firstRefused = null;
            for (Map.Entry<String, Integer> h : onHosts.entrySet()) {
                if (h.getValue() < 1) {
                    continue;
                }
                Pick p = judge(id, own, h.getKey());
                int n = nearness(near, h.getKey());
                if (p.hard() != null) {
                    firstRefused = firstRefused == null ? p : firstRefused;
                } else if (best == null || p.soft().size() < best.soft().size()
                        || (p.soft().size() == best.soft().size() && n > bestNear)) {
                    best = p;
                    bestNear = n;
                    if (!packs && p.soft().isEmpty()) {
                        break;
                    }
                }
            }
            return best != null ? best : firstRefused != null ? firstRefused : new Pick(null, null, Set.of());
        }

        /**
         * Containers tagged as {@code own} already there, per group ("rack=r1") of each admin kind in play:
         * a component's nodes are kept together in as few racks as its constraints allow, so that they
         * leave whole racks to what must stay apart from them (less fragmentation, as in Medea).
         */
        private Map<String, Integer> near(Tags own) {
            Map<String, Integer> near = new HashMap<>();
            List<Group> kinds = finerKinds();
            if (kinds.isEmpty()) {
                return near;
            }
            // the containers carrying its rarest tag (its job's, its instance's), not every container
            String key = own.isEmpty() ? null
                    : own.values().stream().filter(t -> t.startsWith("job=")).findFirst().orElse(own.first());
            for (Container c : key == null ? state.containers() : state.tagged(key)) {
                if (c.tags().equals(own)) {
                    Node n = state.nodes().get(state.indexOf(c.node()));
                    kinds.forEach(k -> near.merge(k.kind() + "=" + n.groupOf(k), 1, Integer::sum));
                }
            }
            return near;
        }

        private int nearness(Map<String, Integer> near, String host) {
            if (near.isEmpty()) {
                return 0;
            }
            Node n = state.nodes().get(state.indexOf(host));
            return finerKinds().stream().mapToInt(k -> near.getOrDefault(k.kind() + "=" + n.groupOf(k), 0)).sum();
        }

        private Pick judge(String id, Tags own, String node) {
            Set<Constraint> soft = new LinkedHashSet<>();
            for (Violation v : Placer.violations(state, id, own, node, constraints)) {
                if (v.constraint().hard()) {
                    return new Pick(node, v, Set.of());
                }
                soft.add(v.constraint());
            }
            return new Pick(node, null, soft);
        }

        /**
         * Counts each idle host of a site whose resources the view knows in nodes of {@code perNode}
         * from now on: how many fit in what is left of it, so that a host is chosen only where a node of
         * the component in hand fits.
         */
        void focus(Map<String, Map<String, HostView>> hostsLeft, Resources perNode) {
            hostIdle.forEach((site, onHosts) -> {
                Map<String, HostView> left = hostsLeft.get(site);
                if (left != null) {
                    onHosts.replaceAll((host, n) -> left.containsKey(host) ? left.get(host).free().count(perNode) : n);
                }
            });
        }

        void take(Container c) {
            state.add(c);
            idleOn(c.node(), -1);
        }

        void giveBack(Container c) {
            state.remove(c.id());
            idleOn(c.node(), +1);
        }

        private void idleOn(String node, int change) {
            String site = siteOfHost.get(node);
            if (site != null) {
                hostIdle.get(site).merge(node, change, Integer::sum);
            }
        }
    }
}
