package koala.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import koala.placement.ComponentNeed;
import koala.placement.PlacementDecision;
import koala.placement.FlexibleClusterMinimization;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicy;
import koala.placement.SiteView;

/**
 * Simulated SGE sites: nodes held by KOALA, nodes its local users occupy (background load), and
 * idle ones. A grow is placed as the scheduler places it — over as few sites as possible, emptiest
 * first, by the placement module's Flexible Cluster Minimization — and granted in part when the
 * grid has fewer idle nodes. The grant delay (O_grow) is the caller's: a granted node is held at
 * once and its worker reports in later.
 *
 * <p>Background load: every site's local users change their demand at exponentially distributed
 * intervals (mean {@link Background#meanChange}) to a fraction uniform on [min, max] of the site.
 * They take only idle nodes — SGE does not preempt KOALA's pilots — so a site's background is the
 * smaller of its users' demand and what KOALA leaves; it catches up at the next change.
 */
public final class SimGrid {
    private static final PlacementPolicy GROW_PLACEMENT = new FlexibleClusterMinimization();

    /** Local users' load: none, or a demand of [min, max] × nodes changing every {@code meanChange} on average. */
    public record Background(double min, double max, Duration meanChange) {
        public static final Background NONE = new Background(0, 0, Duration.ofHours(1));

        public Background {
            if (!(min >= 0 && max <= 1 && min <= max) || meanChange.isNegative() || meanChange.isZero()) {
                throw new IllegalArgumentException("background load " + min + ".." + max + " of a site, every "
                        + meanChange + ": need 0 <= min <= max <= 1 and a positive interval");
            }
        }
    }

    /** A node KOALA holds: its id and site. */
    public record Node(String id, String site) {
    }

    private static final class Site {
        final String name;
        final int nodes;
        int held;
        int background;
        long next;

        Site(String name, int nodes) {
            this.name = name;
            this.nodes = nodes;
        }

        int idle() {
            return nodes - held - background;
        }
    }

    private final Map<String, Site> sites = new LinkedHashMap<>();
    private final Background background;
    private final Random random;
    private int idle;

    /** Sites of these sizes, in order, named fs0, fs1, ... */
    public SimGrid(List<Integer> nodes, Background background, long seed) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i) < 1) {
                throw new IllegalArgumentException("site fs" + i + " has " + nodes.get(i) + " nodes; at least 1");
            }
            sites.put("fs" + i, new Site("fs" + i, nodes.get(i)));
            idle += nodes.get(i);
        }
        this.background = background;
        this.random = new Random(seed);
    }

    /** One site of {@code nodes} nodes and no local users: the setting of Table 2. */
    public static SimGrid single(int nodes) {
        return new SimGrid(List.of(nodes), Background.NONE, 0);
    }

    /** Starts the local users' load changes on every site (nothing when there is no background load). */
    public void startBackground(EventQueue events) {
        if (background.max() == 0) {
            return;
        }
        for (Site s : sites.values()) {
            change(s, events);
        }
    }

    private void change(Site s, EventQueue events) {
        int demand = (int) Math.round(s.nodes * (background.min() + (background.max() - background.min())
                * random.nextDouble()));
        int before = s.background;
        s.background = Math.min(demand, s.nodes - s.held);
        idle += before - s.background;
        double mean = background.meanChange().toMillis();
        events.after(Duration.ofMillis(1 + Math.round(-Math.log(1 - random.nextDouble()) * mean)), () -> change(s, events));
    }

    /** Idle nodes in the whole grid: what the KIS would report. */
    public int idleNodes() {
        return idle;
    }

    /** Up to {@code wanted} nodes, placed over the fewest sites, emptiest first; none when the grid is full. */
    public List<Node> grant(int wanted) {
        int granted = Math.min(wanted, idle);
        if (granted <= 0) {
            return List.of();
        }
        List<SiteView> view = new ArrayList<>(sites.size());
        sites.values().forEach(s -> view.add(new SiteView(s.name, s.nodes, s.idle())));
        PlacementDecision d = GROW_PLACEMENT.place(new JobNeed("grow", List.of(new ComponentNeed(0, granted, null, List.of())),
                true), new GridView(view, null));
        List<Node> out = new ArrayList<>(granted);
        for (koala.placement.Assignment a : ((PlacementDecision.Placed) d).assignments()) {
            Site s = sites.get(a.site());
            for (int i = 0; i < a.nodes(); i++) {
                out.add(new Node(s.name + "." + s.next++, s.name));
            }
            s.held += a.nodes();
            idle -= a.nodes();
        }
        return out;
    }

    /** Gives a node back: it is idle again (local users may take it at their next change). */
    public void release(Node node) {
        Site s = sites.get(node.site());
        if (s == null || s.held == 0) {
            throw new IllegalArgumentException("node " + node.id() + " is not held on " + node.site());
        }
        s.held--;
        idle++;
    }

    /** Nodes in the whole grid. */
    public int nodes() {
        return sites.values().stream().mapToInt(s -> s.nodes).sum();
    }
}
