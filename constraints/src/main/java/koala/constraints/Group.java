package koala.constraints;

/**
 * A kind of node group: the nodes that share a value of it are one group. KOALA knows {@link #HOST}
 * (every node is a group of its own), {@link #SITE} (a cluster, one SGE cell) and {@link #NETWORK}
 * (sites whose nodes reach each other); an admin declares others per node, such as {@code rack} or
 * {@code upgrade-domain} ({@link #of}).
 */
public record Group(String kind) {
    public static final Group HOST = new Group("host");
    public static final Group SITE = new Group("site");
    public static final Group NETWORK = new Group("network");

    public Group {
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("a group kind is a non-blank name");
        }
    }

    public static Group of(String kind) {
        return new Group(kind);
    }

    @Override
    public String toString() {
        return kind;
    }
}
