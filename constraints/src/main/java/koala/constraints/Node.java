package koala.constraints;

import java.util.Map;

/**
 * One node as the placer sees it: how many containers it holds in all, and its value for each kind
 * of group it belongs to (its site, network, rack...). Its {@link Group#HOST} group is always its own
 * name. A node with no value for a kind is a group of that kind by itself ({@link #groupOf}), so
 * that an anti-affinity over racks never lets two containers meet on a node whose rack is unknown.
 *
 * @param slots containers the node holds at once (at least 1)
 */
public record Node(String name, int slots, Map<Group, String> groups) {
    public Node {
        if (name == null || name.isBlank() || slots < 1) {
            throw new IllegalArgumentException("a node has a name and at least 1 slot, got " + name + " " + slots);
        }
        groups = Map.copyOf(groups);
    }

    /** The node's group of the given kind: its declared value, its name for the host, or a group of its own. */
    public String groupOf(Group kind) {
        if (kind.equals(Group.HOST)) {
            return name;
        }
        String value = groups.get(kind);
        return value != null ? value : "(" + kind.kind() + " of " + name + ")";
    }
}
