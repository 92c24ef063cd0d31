package koala.testbed;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which cells and hosts the testbed runs. Cells are named like DAS-4's clusters ({@code fs0},
 * {@code fs1}, ...); cell {@code i} listens on qmaster port {@code 6460 + 2i} and execd port
 * {@code 6461 + 2i}. By default three cells of 16, 8 and 8 nodes, one slot each, the third
 * remote.
 *
 * <p>Addresses come from 198.18.0.0/15, the block reserved for network test labs (RFC 2544), on
 * bridges that have no route off the machine. The grid's bridge {@value #GRID_BRIDGE} holds
 * 198.18.0.0/16: the KOALA host at {@value #KOALA_ADDRESS}, head node of cell {@code i} at
 * 198.18.0.(10+i), compute node {@code k} of a local cell {@code i} at 198.18.(1+i).(10+k). A
 * remote cell {@code i} has a bridge of its own, 198.19.i.0/24: its head node at 198.19.i.1 (and
 * on the grid's bridge, where KOALA reaches its SSH server), node {@code k} at 198.19.i.(10+k).
 *
 * <p>Hosts of different cells reach each other over a wide-area link: each packet between them is
 * held {@code wanDelayMs} milliseconds on its way ({@link WanLinks}), 0 for none. A record written
 * before the delay existed reads as 0, which is what such a testbed has.
 *
 * <p>The scheduler's store is H2, its own file, unless the plan asks for PostgreSQL ({@code --store postgres}):
 * then {@code up} runs a PostgreSQL of the testbed's own on the KOALA host ({@link TestbedStore}) and the grid
 * configuration names it. Like the other options it is the plan's whole say: an {@code up} without it is back
 * on H2. A record written before the store existed reads as H2, and H2 is left out of the record, which older
 * builds reading it do not know.
 *
 * <p>With {@code standbyHost} ({@code --standby-host}) the grid has a second KOALA host, {@value #STANDBY_NAME} at
 * {@value #STANDBY_ADDRESS} on the grid's bridge, for a standby scheduler: a host of its own (network, name, /tmp)
 * that sees the machine's files as the KOALA host does, resolves every host of the grid's view and is resolved by
 * them and by the KOALA host, and is a submit host of every local cell. No cell's address is in 198.18.0.0/24 but
 * its head node's (from .10), and the KOALA host is .1, so .2 is free. Without it, as by default, the plan is what it
 * was before the option existed and its record leaves the option out (a record without it reads as none).
 */
public record TestbedPlan(List<CellPlan> cells, Integer wanDelayMs,
                          @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = Store.Default.class)
                          Store store,
                          @JsonInclude(JsonInclude.Include.NON_DEFAULT) Boolean standbyHost) {
    public static final int DEFAULT_CLUSTERS = 3;
    public static final int FIRST_PORT = 6460;
    public static final int MAX_CLUSTERS = 16;
    public static final int MAX_NODES = 240;
    public static final String GRID_BRIDGE = "koala0";
    public static final String KOALA_ADDRESS = "198.18.0.1";
    /** The grid's network, on {@value #GRID_BRIDGE}. */
    public static final String GRID_NETWORK = "198.18.0.0/16";
    /** The KOALA host's name on the grid's bridge, as every host of the testbed resolves it. */
    public static final String KOALA_NAME = "koala-host";
    /** The second KOALA host's name ({@code --standby-host}), as every host of the grid's view resolves it. */
    public static final String STANDBY_NAME = "koala-b";
    /** The second KOALA host's address on {@value #GRID_BRIDGE}. */
    public static final String STANDBY_ADDRESS = "198.18.0.2";
    /** Each way between hosts of different cells, in milliseconds: a round trip of 10 ms, as between sites of DAS-4. */
    public static final int DEFAULT_WAN_DELAY_MS = 5;
    public static final int MAX_WAN_DELAY_MS = 1000;

    /** Where the scheduler keeps its state: {@code --store h2|postgres}. */
    public enum Store {
        /** The scheduler's own H2 file (KOALA_HOME/scheduler/koala): the grid configuration names no store. */
        @JsonProperty("h2") H2,
        /** The testbed's PostgreSQL on the KOALA host, which schedulers on any host of the grid share. */
        @JsonProperty("postgres") POSTGRES;

        /** The value of {@code --store} that asks for this store. */
        public String option() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** {@code h2} or {@code postgres} (also {@code postgresql}), in any case. */
        public static Store parse(String option) {
            String o = option == null ? "" : option.strip().toLowerCase(Locale.ROOT);
            return switch (o) {
                case "h2" -> H2;
                case "postgres", "postgresql" -> POSTGRES;
                default -> throw new IllegalArgumentException("--store " + option + ": choose h2 or postgres");
            };
        }

        /** Left out of the record: H2, the default (Jackson's custom inclusion filter: equal means left out). */
        static final class Default {
            @Override
            public boolean equals(Object value) {
                return value == null || value == H2;
            }

            @Override
            public int hashCode() {
                return 0;
            }
        }
    }

    public TestbedPlan {
        cells = List.copyOf(cells);
        wanDelayMs = wanDelayMs == null ? 0 : wanDelayMs;
        store = store == null ? Store.H2 : store;
        standbyHost = standbyHost != null && standbyHost;
    }

    /** The cells with this delay and the scheduler's own H2 file as its store, without a standby host. */
    public TestbedPlan(List<CellPlan> cells, Integer wanDelayMs) {
        this(cells, wanDelayMs, Store.H2);
    }

    /** The cells with this delay and store, without a standby host. */
    public TestbedPlan(List<CellPlan> cells, Integer wanDelayMs, Store store) {
        this(cells, wanDelayMs, store, false);
    }

    /** The same cells with another wide-area delay, in milliseconds each way (0: none). */
    public TestbedPlan withWanDelay(int ms) {
        if (ms < 0 || ms > MAX_WAN_DELAY_MS) {
            throw new IllegalArgumentException("--wan-delay " + ms + ": choose 0.." + MAX_WAN_DELAY_MS + " (ms)");
        }
        return new TestbedPlan(cells, ms, store, standbyHost);
    }

    /** The same testbed with the scheduler's store {@code option}, as {@code --store} gives it ({@link Store#parse}). */
    public TestbedPlan withStore(String option) {
        return withStore(Store.parse(option));
    }

    public TestbedPlan withStore(Store store) {
        return new TestbedPlan(cells, wanDelayMs, store, standbyHost);
    }

    /** The same testbed with the second KOALA host {@value #STANDBY_NAME} ({@code --standby-host}), or without it. */
    public TestbedPlan withStandbyHost(boolean standby) {
        return new TestbedPlan(cells, wanDelayMs, store, standby);
    }

    /**
     * @param clusters     how many cells, or null to take it from {@code nodes} (else 3)
     * @param nodes        compute nodes per cell, or empty for 16 on the first cell and 8 on the others
     * @param slotsPerNode slots of each node's execd
     * @param remote       the cells reached over SSH, or null for the third cell ({@code fs2}) when there is one
     * @return the plan, with the default wide-area delay ({@value #DEFAULT_WAN_DELAY_MS} ms each way)
     */
    public static TestbedPlan of(Integer clusters, List<Integer> nodes, int slotsPerNode, Set<String> remote) {
        int n = clusters != null ? clusters : nodes.isEmpty() ? DEFAULT_CLUSTERS : nodes.size();
        if (n < 1 || n > MAX_CLUSTERS) {
            throw new IllegalArgumentException("--clusters " + n + ": choose 1.." + MAX_CLUSTERS);
        }
        if (!nodes.isEmpty() && nodes.size() != n) {
            throw new IllegalArgumentException("--nodes gives " + nodes.size() + " sizes for " + n + " clusters");
        }
        if (slotsPerNode < 1 || slotsPerNode > 64) {
            throw new IllegalArgumentException("--slots-per-node " + slotsPerNode + ": choose 1..64");
        }
        Set<String> remotes = remote != null ? remote : n >= 3 ? Set.of("fs2") : Set.of();
        List<CellPlan> cells = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int size = nodes.isEmpty() ? (i == 0 ? 16 : 8) : nodes.get(i);
            if (size < 1 || size > MAX_NODES) {
                throw new IllegalArgumentException("--nodes " + size + " for fs" + i + ": choose 1.." + MAX_NODES);
            }
            cells.add(new CellPlan("fs" + i, i, size, slotsPerNode, FIRST_PORT + 2 * i, FIRST_PORT + 2 * i + 1,
                    remotes.contains("fs" + i)));
        }
        for (String r : remotes) {
            if (cells.stream().noneMatch(c -> c.name().equals(r))) {
                throw new IllegalArgumentException("--remote " + r + ": no such cell (fs0..fs" + (n - 1) + ")");
            }
        }
        return new TestbedPlan(cells, DEFAULT_WAN_DELAY_MS);
    }

    /**
     * The same cells with unequal hosts: each of {@code specs} is {@code CELL=GROUP+GROUP...} (see
     * {@link HostShape#parseGroups}), e.g. {@code fs0=12x4c/8G+4x16c/64G/2gpu}. Cells not named keep
     * hosts all alike; no spec at all is the plain testbed, and {@code up} with it puts a shaped
     * testbed back.
     */
    public TestbedPlan withShapes(List<String> specs) {
        List<CellPlan> shaped = new ArrayList<>(cells);
        Set<String> seen = new java.util.HashSet<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("--shape '" + spec + "': write CELL=GROUP[+GROUP...], e.g. "
                        + "fs0=12x4c/8G+4x16c/64G/2gpu");
            }
            String name = spec.substring(0, eq).trim();
            if (!seen.add(name)) {
                throw new IllegalArgumentException("--shape " + name + ": given twice; join its groups with '+'");
            }
            int i = indexOf(shaped, name);
            if (i < 0) {
                throw new IllegalArgumentException("--shape " + name + ": no such cell (fs0..fs" + (cells.size() - 1) + ")");
            }
            shaped.set(i, shaped.get(i).withShape(HostShape.parseGroups(spec.substring(eq + 1))));
        }
        return new TestbedPlan(shaped, wanDelayMs, store, standbyHost);
    }

    /** Compute nodes of the Slurm cell {@code --slurm} adds when given no number. */
    public static final int DEFAULT_SLURM_NODES = 4;
    /** CPUs of each node of that cell: more than one, so that a claim of cores means something. */
    public static final int SLURM_CPUS_PER_NODE = 2;

    /** This plan with the Slurm cell of {@code recorded} as it is there (its nodes, local or remote); none without one. */
    public TestbedPlan withSlurmCellOf(java.util.Optional<TestbedPlan> recorded) {
        return withSlurmCell(recorded.map(TestbedPlan::slurmNodes).orElse(0),
                recorded.map(TestbedPlan::slurmRemote).orElse(false));
    }

    /** Whether this testbed's Slurm cell is remote (false when it has none). */
    public boolean slurmRemote() {
        return cells.stream().filter(CellPlan::slurm).findFirst().map(CellPlan::remote).orElse(false);
    }

    /** Compute nodes of this testbed's Slurm cell, 0 when it has none. */
    public int slurmNodes() {
        return cells.stream().filter(CellPlan::slurm).findFirst().map(CellPlan::nodes).orElse(0);
    }

    /**
     * The same testbed with one more cell, local, that runs Slurm ({@code --slurm N}): {@code fs<n>} after the
     * others, {@code nodes} compute nodes of {@value #SLURM_CPUS_PER_NODE} CPUs; 0 adds none.
     */
    public TestbedPlan withSlurmCell(int nodes) {
        return withSlurmCell(nodes, false);
    }

    /**
     * As {@link #withSlurmCell(int)}; {@code remote}: a cell reached only by SSH to its head node, its compute
     * nodes on a network of their own ({@code --slurm N --slurm-remote}), as {@code fs2} is among the SGE cells.
     */
    public TestbedPlan withSlurmCell(int nodes, boolean remote) {
        if (nodes == 0) {
            return this;
        }
        if (nodes < 1 || nodes > MAX_NODES) {
            throw new IllegalArgumentException("--slurm " + nodes + ": choose 1.." + MAX_NODES + " compute nodes");
        }
        if (cells.size() >= MAX_CLUSTERS) {
            throw new IllegalArgumentException("--slurm: " + cells.size() + " cells already, the most a testbed has");
        }
        int i = cells.size();
        List<CellPlan> more = new ArrayList<>(cells);
        more.add(new CellPlan("fs" + i, i, nodes, SLURM_CPUS_PER_NODE, FIRST_PORT + 2 * i, FIRST_PORT + 2 * i + 1, remote,
                List.of(), CellPlan.Manager.SLURM));
        return new TestbedPlan(more, wanDelayMs, store, standbyHost);
    }

    private static int indexOf(List<CellPlan> cells, String name) {
        for (int i = 0; i < cells.size(); i++) {
            if (cells.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public CellPlan cell(String name) {
        return cells.stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new TestbedException("no testbed cell " + name));
    }

    /**
     * Every host but the KOALA host: head nodes first, then compute nodes, cell by cell, then the standby host when
     * the plan has one.
     */
    public List<HostPlan> hosts() {
        List<HostPlan> hosts = new ArrayList<>();
        for (CellPlan c : cells) {
            hosts.add(head(c));
        }
        for (CellPlan c : cells) {
            for (int k = 1; k <= c.nodes(); k++) {
                hosts.add(c.remote()
                        ? new HostPlan(c.node(k), c.name(), HostPlan.Role.NODE, null, nodeAddress(c, k), c.name())
                        : new HostPlan(c.node(k), c.name(), HostPlan.Role.NODE, nodeAddress(c, k), null, HostPlan.GRID_VIEW));
            }
        }
        if (standbyHost) {
            hosts.add(standby());
        }
        return hosts;
    }

    /** The second KOALA host: in no cell, on the grid's bridge, with the grid's view of names. */
    static HostPlan standby() {
        return new HostPlan(STANDBY_NAME, null, HostPlan.Role.STANDBY, STANDBY_ADDRESS, null, HostPlan.GRID_VIEW);
    }

    /**
     * The hosts that submit to {@code cell}, as its qmaster's submit host list has them: a remote cell's head node
     * alone (KOALA's agent runs there); a local cell's head node, the KOALA host ({@code koalaHostname}, the machine's
     * own name, which SGE's clients there claim) and the standby host when the plan has one.
     */
    public List<String> submitHosts(CellPlan cell, String koalaHostname) {
        if (cell.remote()) {
            return List.of(cell.head());
        }
        List<String> submitters = new ArrayList<>(List.of(cell.head(), koalaHostname));
        if (standbyHost) {
            submitters.add(STANDBY_NAME);
        }
        return submitters;
    }

    public HostPlan host(String name) {
        return hosts().stream().filter(h -> h.name().equals(name)).findFirst()
                .orElseThrow(() -> new TestbedException("no testbed host " + name));
    }

    /** Cell {@code c}'s head node's address on the grid's network. */
    static String headAddress(CellPlan c) {
        return "198.18.0." + (10 + c.index());
    }

    private static HostPlan head(CellPlan c) {
        String grid = headAddress(c);
        return c.remote() ? new HostPlan(c.head(), c.name(), HostPlan.Role.HEAD, grid, privateNet(c) + ".1", c.name())
                : new HostPlan(c.head(), c.name(), HostPlan.Role.HEAD, grid, null, HostPlan.GRID_VIEW);
    }

    /** Compute node {@code k} of cell {@code c}'s address: on the grid's network, or a remote cell's own. */
    static String nodeAddress(CellPlan c, int k) {
        return (c.remote() ? privateNet(c) : gridNodeNet(c)) + "." + (10 + k);
    }

    /** The address cell {@code c}'s compute nodes reach its head node at: a remote cell's on its own network. */
    static String headAddressForNodes(CellPlan c) {
        return c.remote() ? privateNet(c) + ".1" : headAddress(c);
    }

    /** A remote cell's own bridge: 15 characters at most. */
    public static String clusterBridge(CellPlan cell) {
        return "koala-" + cell.name();
    }

    /** The first three bytes of a local cell's compute nodes' addresses on the grid's network. */
    static String gridNodeNet(CellPlan c) {
        return "198.18." + (1 + c.index());
    }

    static String privateNet(CellPlan c) {
        return "198.19." + c.index();
    }

    /**
     * The hosts file of a view: the names its hosts resolve. In the grid's view the KOALA host is
     * {@code koalaHostname} (the machine's own name, which SGE's clients claim) and
     * {@value #KOALA_NAME}; a remote cell's view knows only its own hosts, by their private addresses.
     */
    public String hostsFile(String view, String koalaHostname) {
        StringBuilder s = new StringBuilder("# written by bin/koala testbed up: the hosts of view '" + view + "'\n")
                .append("127.0.0.1 localhost\n");
        if (view.equals(HostPlan.GRID_VIEW)) {
            s.append(KOALA_ADDRESS).append(' ').append(koalaHostname).append(' ').append(KOALA_NAME).append('\n');
        }
        for (HostPlan h : hosts()) {
            String address = view.equals(HostPlan.GRID_VIEW) ? h.gridAddress() : view.equals(h.cell()) ? h.address() : null;
            if (address != null) {
                s.append(address).append(' ').append(h.name()).append('\n');
            }
        }
        return s.toString();
    }

    /** The lines {@code up} adds to the machine's /etc/hosts: every host the KOALA host can reach. */
    public List<String> machineHosts() {
        List<String> lines = new ArrayList<>(List.of(KOALA_ADDRESS + " " + KOALA_NAME));
        hosts().stream().filter(h -> h.gridAddress() != null).forEach(h -> lines.add(h.gridAddress() + " " + h.name()));
        return lines;
    }
}
