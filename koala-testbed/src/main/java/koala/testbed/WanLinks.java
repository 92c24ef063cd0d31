package koala.testbed;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The testbed's wide-area links as routes: what each host on the grid's network needs so that its
 * packets to another cell are delayed and its packets inside its own cell are not. Pure: it
 * computes scripts, command lines and probes from a plan; {@link WanDelay} runs them.
 *
 * <p>The kernel here has no {@code netem}, so the delay is a program of the testbed
 * ({@code wan-delay.py}) reading a TUN device. In every host with an address on the grid's
 * network {@code H}:
 * <ul>
 * <li>a persistent TUN device {@value #DEVICE}, with the MTU of {@value #GRID_INTERFACE};</li>
 * <li>a route for each prefix of every other cell into that device, with {@code src} the host's
 * own address (the grid's {@code /16} is on {@value #GRID_INTERFACE}: these routes are more
 * specific). A local cell's prefixes are its head node ({@code /32}) and its compute nodes'
 * {@code /24}; a remote cell's only its head node, since its compute nodes are private and never
 * reach another cell but through the head node;</li>
 * <li>a policy rule: packets with firewall mark {@value #MARK} look up table {@value #TABLE}, which
 * routes the grid's network out through {@value #GRID_INTERFACE}. The delay program sends each
 * packet back with that mark after holding it, so it leaves instead of coming back into the
 * device.</li>
 * </ul>
 * A packet is delayed on its sender's side, so each direction pays the delay once and a round trip
 * between cells takes twice the delay. The KOALA host belongs to no cell: its traffic is never
 * delayed, nor is the standby host's ({@code --standby-host}). When the program is not running, traffic between cells is dropped rather than passed
 * undelayed. Worked example, default plan: {@code fs0-n1} (198.18.1.11) routes 198.18.0.11/32 and
 * 198.18.2.0/24 (fs1) and 198.18.0.12/32 (fs2's head node) into {@value #DEVICE}; {@code fs2-head}
 * routes 198.18.0.10/32, 198.18.1.0/24, 198.18.0.11/32, 198.18.2.0/24.
 */
final class WanLinks {
    static final String DEVICE = "kwan";
    static final String GRID_INTERFACE = "eth0";
    static final int MARK = 0x4b;
    static final int TABLE = 75;
    static final int RULE_PRIORITY = 1000;

    /** A host on the grid's network: its cell, its address there and the prefixes it routes into the delay. */
    record HostRoutes(String host, String cell, String address, List<String> prefixes) {
        HostRoutes {
            prefixes = List.copyOf(prefixes);
        }
    }

    /**
     * One round trip {@code testbed status} measures: inside a cell when {@code fromCell} equals
     * {@code toCell}, else between the two.
     */
    record Probe(String fromCell, String toCell, String fromHost, String toHost, String toAddress) {
        String label() {
            return fromCell.equals(toCell) ? "inside " + fromCell : fromCell + " - " + toCell;
        }
    }

    private final TestbedPlan plan;

    WanLinks(TestbedPlan plan) {
        this.plan = plan;
    }

    /** The addresses of {@code cell} that other cells reach, in CIDR form. */
    static List<String> prefixes(CellPlan cell) {
        List<String> prefixes = new ArrayList<>(List.of(head(cell) + "/32"));
        if (!cell.remote()) {
            prefixes.add(TestbedPlan.gridNodeNet(cell) + ".0/24");
        }
        return prefixes;
    }

    private static String head(CellPlan cell) {
        return "198.18.0." + (10 + cell.index());
    }

    /** Every host on the grid's network that has another cell to reach, in the plan's order of hosts. */
    List<HostRoutes> hosts() {
        List<HostRoutes> hosts = new ArrayList<>();
        for (HostPlan h : plan.hosts()) {
            if (h.gridAddress() == null || h.cell() == null) {
                continue; // the standby host, as the KOALA host, belongs to no cell
            }
            List<String> prefixes = plan.cells().stream().filter(c -> !c.name().equals(h.cell()))
                    .flatMap(c -> prefixes(c).stream()).toList();
            if (!prefixes.isEmpty()) {
                hosts.add(new HostRoutes(h.name(), h.cell(), h.gridAddress(), prefixes));
            }
        }
        return hosts;
    }

    /**
     * The shell script that sets up one host (run inside its network namespace), idempotent: it
     * makes the device when missing (printing {@code made}), replaces the routes, drops routes into
     * the device that the plan no longer has (printing {@code dropped PREFIX}) and adds the rule once
     * (printing {@code rule}). Reverse-path filtering is turned off: a packet from another cell
     * arrives on {@value #GRID_INTERFACE} although the host's route back to it is the device.
     */
    static String setupScript(HostRoutes h) {
        return setupScript(h, TestbedPlan.GRID_NETWORK);
    }

    /** {@link #setupScript(HostRoutes)} for a host whose {@value #GRID_INTERFACE} is on {@code network}. */
    static String setupScript(HostRoutes h, String network) {
        List<String> lines = new ArrayList<>();
        lines.add("if ! ip link show " + DEVICE + " >/dev/null 2>&1; then ip tuntap add dev " + DEVICE
                + " mode tun; echo made; fi");
        lines.add("ip link set " + DEVICE + " mtu \"$(cat /sys/class/net/" + GRID_INTERFACE + "/mtu)\" up");
        lines.add("echo 0 > /proc/sys/net/ipv4/conf/all/rp_filter");
        lines.add("echo 0 > /proc/sys/net/ipv4/conf/" + GRID_INTERFACE + "/rp_filter");
        for (String p : h.prefixes()) {
            lines.add("ip route replace " + p + " dev " + DEVICE + " src " + h.address());
        }
        String wanted = h.prefixes().stream().map(WanLinks::asListed).collect(Collectors.joining("|"));
        lines.add("for r in $(ip -o route show dev " + DEVICE + " | cut -d' ' -f1); do case $r in " + wanted
                + ") ;; *) ip route del \"$r\" dev " + DEVICE + "; echo \"dropped $r\";; esac; done");
        lines.add("ip route replace " + network + " dev " + GRID_INTERFACE + " table " + TABLE);
        lines.add("if [ -z \"$(ip rule show " + rule() + ")\" ]; then ip rule add " + rule() + " priority "
                + RULE_PRIORITY + "; echo rule; fi");
        return String.join("\n", lines) + "\n";
    }

    /** The script that undoes {@link #setupScript} on one host (printing {@code removed} when it had the device). */
    static String removeScript() {
        return "if ip link show " + DEVICE + " >/dev/null 2>&1; then ip link del " + DEVICE + "; echo removed; fi\n"
                + "while ip rule del " + rule() + " 2>/dev/null; do :; done\n"
                + "ip route flush table " + TABLE + " 2>/dev/null || true\n";
    }

    private static String rule() {
        return "fwmark " + String.format("%#x", MARK) + " lookup " + TABLE;
    }

    /** How {@code ip route} lists a prefix: a host route without its {@code /32}. */
    static String asListed(String prefix) {
        return prefix.endsWith("/32") ? prefix.substring(0, prefix.length() - 3) : prefix;
    }

    /** The delay program's command line: one process for every host of {@code hosts}. */
    static List<String> command(Path python, Path script, Path pidFile, int delayMs, List<HostRoutes> hosts) {
        List<String> command = new ArrayList<>(List.of(python.toString(), script.toString(),
                "--delay-us", Integer.toString(delayMs * 1000), "--mark", String.format("%#x", MARK),
                "--device", DEVICE, "--pid-file", pidFile.toString()));
        hosts.forEach(h -> command.add(h.host()));
        return command;
    }

    /**
     * The round trips worth knowing: inside each cell (its first compute node to its second, or to
     * its head node when it has one node), and between every two cells, each from its first compute
     * node, or from its head node for a remote cell (whose compute nodes reach no other cell).
     */
    List<Probe> probes() {
        List<Probe> probes = new ArrayList<>();
        List<CellPlan> cells = plan.cells();
        for (int i = 0; i < cells.size(); i++) {
            CellPlan a = cells.get(i);
            HostPlan to = plan.host(a.nodes() >= 2 ? a.node(2) : a.head());
            probes.add(new Probe(a.name(), a.name(), a.node(1), to.name(), to.address()));
            for (CellPlan b : cells.subList(i + 1, cells.size())) {
                HostPlan far = gridProbe(b);
                probes.add(new Probe(a.name(), b.name(), gridProbe(a).name(), far.name(), far.gridAddress()));
            }
        }
        return probes;
    }

    private HostPlan gridProbe(CellPlan cell) {
        return plan.host(cell.remote() ? cell.head() : cell.node(1));
    }
}
