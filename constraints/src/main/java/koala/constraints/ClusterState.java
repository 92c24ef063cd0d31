package koala.constraints;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster as the placer sees it: the nodes (by name) with their groups and slots, the tagged
 * containers running on them, and the constraints in force (those of the requests placed so far, filed
 * under an owner such as the framework instance, and dropped with it).
 *
 * <p>Its owner keeps it up to date as containers start and end ({@link #add}, {@link #remove},
 * {@link #constrain}, {@link #release}), so that a decision reads an index rather than rebuilding one:
 * containers are indexed by tag, constraints by the first tag of their subject and of their target.
 * The {@link Placer} only reads it; its tentative placements are kept apart. No I/O, no clock.
 */
public final class ClusterState {
    private final List<Node> nodes;
    private final Map<String, Integer> index = new HashMap<>();
    private final int[] used;
    private final List<String> sites;
    private final int[] siteOf;
    private final int[][] siteNodes;
    private final int[] siteFree;
    private final Map<String, Container> containers = new LinkedHashMap<>();
    private final Map<String, Set<Container>> byTag = new HashMap<>();
    private final Map<String, List<Constraint>> owned = new LinkedHashMap<>();
    private final Map<String, List<Constraint>> constraintsByTag = new HashMap<>();

    public ClusterState(Collection<Node> nodes) {
        List<Node> sorted = new ArrayList<>(nodes);
        sorted.sort(Comparator.comparing(Node::name));
        this.nodes = List.copyOf(sorted);
        for (int i = 0; i < sorted.size(); i++) {
            if (index.put(sorted.get(i).name(), i) != null) {
                throw new IllegalArgumentException("node " + sorted.get(i).name() + " appears twice");
            }
        }
        this.used = new int[sorted.size()];
        Map<String, List<Integer>> bySite = new java.util.TreeMap<>();
        for (int i = 0; i < sorted.size(); i++) {
            bySite.computeIfAbsent(sorted.get(i).groupOf(Group.SITE), x -> new ArrayList<>()).add(i);
        }
        this.sites = List.copyOf(bySite.keySet());
        this.siteOf = new int[sorted.size()];
        this.siteNodes = new int[sites.size()][];
        this.siteFree = new int[sites.size()];
        int s = 0;
        for (List<Integer> members : bySite.values()) {
            siteNodes[s] = members.stream().mapToInt(Integer::intValue).toArray();
            for (int i : siteNodes[s]) {
                siteOf[i] = s;
                siteFree[s] += sorted.get(i).slots();
            }
            s++;
        }
    }

    /** The sites (values of {@link Group#SITE}), by name; a node without one is a site of its own. */
    public List<String> sites() {
        return sites;
    }

    /** Positions in {@link #nodes()} of the nodes of the site at position {@code site}, by name. */
    int[] siteNodes(int site) {
        return siteNodes[site];
    }

    /** The position in {@link #sites()} of the node's site. */
    int siteOf(int node) {
        return siteOf[node];
    }

    /** Free slots of the site at position {@code site}. */
    public int siteFree(int site) {
        return siteFree[site];
    }

    /** The nodes, by name. */
    public List<Node> nodes() {
        return nodes;
    }

    /** The node's position in {@link #nodes()}, or -1. */
    public int indexOf(String node) {
        return index.getOrDefault(node, -1);
    }

    /** Slots of the node at position {@code i} that no container holds. */
    public int free(int i) {
        return nodes.get(i).slots() - used[i];
    }

    public int free(String node) {
        return free(require(node));
    }

    /** Starts a container on its node; the node must have a free slot and the id must be new. */
    public void add(Container c) {
        int i = require(c.node());
        if (free(i) < 1) {
            throw new IllegalArgumentException("node " + c.node() + " has no free slot for " + c.id());
        }
        if (containers.putIfAbsent(c.id(), c) != null) {
            throw new IllegalArgumentException("container " + c.id() + " is already running");
        }
        used[i]++;
        siteFree[siteOf[i]]--;
        for (String tag : c.tags().values()) {
            byTag.computeIfAbsent(tag, t -> new LinkedHashSet<>()).add(c);
        }
    }

    /** Ends a container; returns it, or null when none has that id. */
    public Container remove(String id) {
        Container c = containers.remove(id);
        if (c == null) {
            return null;
        }
        int i = index.get(c.node());
        used[i]--;
        siteFree[siteOf[i]]++;
        for (String tag : c.tags().values()) {
            Set<Container> set = byTag.get(tag);
            set.remove(c);
            if (set.isEmpty()) {
                byTag.remove(tag);
            }
        }
        return c;
    }

    public Container container(String id) {
        return containers.get(id);
    }

    public Collection<Container> containers() {
        return Collections.unmodifiableCollection(containers.values());
    }

    /** The running containers that have this tag. */
    public Collection<Container> tagged(String tag) {
        Set<Container> set = byTag.get(tag);
        return set == null ? List.of() : Collections.unmodifiableCollection(set);
    }

    /** Puts constraints in force under an owner (e.g. the framework instance), beside any it has. */
    public void constrain(String owner, List<Constraint> constraints) {
        List<Constraint> list = owned.computeIfAbsent(owner, o -> new ArrayList<>());
        for (Constraint k : constraints) {
            list.add(k);
            file(k.subject().first(), k);
            if (!k.target().first().equals(k.subject().first())) {
                file(k.target().first(), k);
            }
        }
    }

    /** Drops every constraint of the owner (when its instance ends). */
    public void release(String owner) {
        List<Constraint> list = owned.remove(owner);
        if (list == null) {
            return;
        }
        for (Constraint k : list) {
            unfile(k.subject().first(), k);
            unfile(k.target().first(), k);
        }
    }

    /** Every constraint in force, owner by owner. */
    public List<Constraint> constraints() {
        List<Constraint> all = new ArrayList<>();
        owned.values().forEach(all::addAll);
        return all;
    }

    /** The constraints in force whose subject or target a container with these tags carries. */
    public List<Constraint> concerning(Tags tags) {
        List<Constraint> found = new ArrayList<>();
        for (String tag : tags.values()) {
            for (Constraint k : constraintsByTag.getOrDefault(tag, List.of())) {
                if ((tags.carries(k.subject()) || tags.carries(k.target())) && !found.contains(k)) {
                    found.add(k);
                }
            }
        }
        return found;
    }

    /** Applies a placed request: its containers start where the decision says, its constraints under {@code owner}. */
    public void apply(Request request, ConstraintDecision.Placed placed, String owner) {
        Map<String, Ask> asks = new HashMap<>();
        request.asks().forEach(a -> asks.put(a.id(), a));
        for (Placement p : placed.placements()) {
            add(new Container(p.container(), asks.get(p.container()).tags(), p.node()));
        }
        if (!request.constraints().isEmpty()) {
            constrain(owner, request.constraints());
        }
    }

    private int require(String node) {
        Integer i = index.get(node);
        if (i == null) {
            throw new IllegalArgumentException("no node " + node + " in the cluster");
        }
        return i;
    }

    private void file(String tag, Constraint k) {
        constraintsByTag.computeIfAbsent(tag, t -> new ArrayList<>()).add(k);
    }

    private void unfile(String tag, Constraint k) {
        List<Constraint> list = constraintsByTag.get(tag);
        if (list == null) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == k) {
                list.remove(i);
                break;
            }
        }
        if (list.isEmpty()) {
            constraintsByTag.remove(tag);
        }
    }
}
