package koala.testbed;

/**
 * One host of the testbed: a network, UTS and mount namespace of its own, with an address on the
 * grid's bridge ({@code gridAddress}), on its cell's private bridge ({@code clusterAddress}), or
 * both (a remote cell's head node). The KOALA host is the machine itself (the root namespaces); the standby
 * host, when the plan has one, is a second KOALA host of its own.
 *
 * @param cell null for the KOALA host and the standby host
 * @param view the host names it resolves: {@link #GRID_VIEW}, or a remote cell's own
 */
public record HostPlan(String name, String cell, Role role, String gridAddress, String clusterAddress, String view) {
    public static final String GRID_VIEW = "grid";

    /**
     * {@code STANDBY}: a second KOALA host ({@code testbed up --standby-host}), in no cell, whose mount namespace
     * hides nothing of the machine's files.
     */
    public enum Role { KOALA, HEAD, NODE, STANDBY }

    /** The address its cell's other hosts reach it at. */
    public String address() {
        return clusterAddress != null ? clusterAddress : gridAddress;
    }

    /** The name of the host's veth pair on {@code bridge}: 15 characters at most. */
    String link(String bridge) {
        return "k" + Integer.toHexString((name + "@" + bridge).hashCode() & 0xfffffff);
    }
}
