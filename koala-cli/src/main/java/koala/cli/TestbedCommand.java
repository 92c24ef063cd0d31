package koala.cli;

import java.io.PrintStream;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import koala.common.json.Json;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.testbed.CellStatus;
import koala.testbed.HostStatus;
import koala.testbed.LocalUser;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import koala.testbed.TestbedStatus;
import koala.testbed.TestbedStore;
import koala.testbed.WanStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "testbed", mixinStandardHelpOptions = true,
        description = {"A local multicluster testbed: independent SGE cells whose head nodes and compute nodes are "
                + "hosts of their own (network, UTS and mount namespaces on this machine, addresses in 198.18.0.0/15 "
                + "on bridges with no route off it). Needs root."},
        subcommands = {TestbedCommand.Up.class, TestbedCommand.Down.class, TestbedCommand.Status.class,
                TestbedCommand.Qstat.class})
public final class TestbedCommand {

    public static Testbed testbed(PrintStream out) {
        return new Testbed(KoalaHome.dir(), new Progress(out, InstantSource.system()), Poll.system());
    }

    /** The default testbed: fs0 of 16 nodes, fs1 and fs2 of 8, one slot a node, fs2 remote. */
    public static TestbedPlan defaultPlan() {
        return TestbedPlan.of(null, List.of(), 1, null);
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Install Debian's gridengine and OpenSSH packages if missing (--programs: and the programs "
                    + "the tests run), create the account 'koala' "
                    + "that site agents submit as, make the hosts and start each cell's qmaster (on its head node), "
                    + "an execd on every compute node and, on a remote cell's head node, an SSH server. Idempotent: "
                    + "on a running testbed it changes nothing and says so, and a host whose daemon died is repaired. "
                    + "Traffic between hosts of different cells is delayed as over a wide-area link (--wan-delay). "
                    + "With --store postgres, also runs a PostgreSQL of the testbed's own on the KOALA host as the "
                    + "schedulers' shared store. With --standby-host, also a second KOALA host for a standby "
                    + "scheduler. "
                    + "Writes the grid configuration, /etc/koala/grid.properties, which every user's koala reads. "
                    + "Each up brings the testbed to what its options say: an option left out is its default again."})
    static final class Up implements Callable<Integer> {
        @Option(names = "--clusters", description = "number of cells (default: 3, or as many as --nodes lists)")
        Integer clusters;

        @Option(names = "--nodes", split = ",", paramLabel = "N",
                description = "compute nodes per cell, each a host of its own (default: 16,8,8,...)")
        List<Integer> nodes = List.of();

        @Option(names = "--slots-per-node", paramLabel = "S", defaultValue = "1",
                description = "slots of each node's execd (default: ${DEFAULT-VALUE}); with more than one, KOALA "
                        + "claims a whole node with -l exclusive=true")
        int slotsPerNode;

        @Option(names = "--shape", paramLabel = "CELL=GROUPS",
                description = "unequal hosts in a cell, one option per cell: groups joined by '+', each COUNTx then "
                        + "'/'-separated Nc (cores: the host's slots), a memory such as 8G (its consumable h_vmem) and "
                        + "Ngpu (its consumable gpu); they fill the cell's nodes from n1, the rest stay as "
                        + "--slots-per-node says. E.g. --shape fs0=12x4c/8G+4x16c/64G/2gpu --shape fs1=8x8c/16G. "
                        + "Without it every host is alike, and up puts a shaped testbed back so")
        List<String> shapes = List.of();

        @Option(names = "--remote", split = ",", paramLabel = "CELL",
                description = "cells reached only by SSH to their head node (default: fs2 when there are 3 or more; "
                        + "'none' for none)")
        Set<String> remote;

        @Option(names = "--wan-delay", paramLabel = "MS", defaultValue = "" + TestbedPlan.DEFAULT_WAN_DELAY_MS,
                description = "milliseconds each packet between hosts of different cells is delayed, each way (default: "
                        + "${DEFAULT-VALUE}, a round trip of twice that; 0 for none); traffic inside a cell is not")
        int wanDelayMs;

        @Option(names = "--store", paramLabel = "STORE", defaultValue = "h2",
                description = "where the scheduler keeps its state: 'h2', its own file (default), or 'postgres': "
                        + "installs Debian's postgresql if missing and runs a cluster of the testbed's own in "
                        + TestbedStore.DIRECTORY + " (no systemd), on port " + TestbedStore.PORT + " at 127.0.0.1 and "
                        + TestbedPlan.KOALA_ADDRESS + " for clients of " + TestbedPlan.GRID_NETWORK + ", so that a "
                        + "scheduler on any host of the grid reaches it; makes database koala of role koala with a "
                        + "random password kept in /etc/koala/database.password (mode 600, re-used), and names them "
                        + "in the grid configuration (scheduler.database = jdbc:postgresql://" + TestbedPlan.KOALA_ADDRESS
                        + ":5432/koala, .user, .passwordFile). An up without it goes back to H2: it removes those keys "
                        + "and stops that PostgreSQL, whose data stay for the next --store postgres")
        String store;

        @Option(names = "--standby-host", description = "also make a second KOALA host for a standby scheduler: "
                + TestbedPlan.STANDBY_NAME + " at " + TestbedPlan.STANDBY_ADDRESS + " on the grid's bridge, with a "
                + "network, name, /tmp and /run/koala (the users' socket) of its own but the KOALA host's files (the "
                + "SGE installation, /etc/koala, KOALA_HOME, the JDK, the published jars); every host of the grid and the KOALA host resolve it, and it "
                + "is a submit host of every local cell, so a scheduler and site agents started there (nsenter, "
                + "Testbed.commandOn) submit pilots and reach the store and the remote cells' head nodes. An up "
                + "without it removes that host, and whatever runs on it")
        boolean standbyHost;

        @Option(names = "--slurm", arity = "0..1", paramLabel = "NODES", fallbackValue = "" + TestbedPlan.DEFAULT_SLURM_NODES,
                description = "also make a cell that runs Slurm (Debian's slurmctld, slurmd and munge, installed when "
                        + "missing): the next fsN after the SGE cells, local, with NODES compute nodes (default "
                        + TestbedPlan.DEFAULT_SLURM_NODES + ") of " + TestbedPlan.SLURM_CPUS_PER_NODE + " CPUs; its "
                        + "slurm.conf is under /srv/koala-testbed/fsN/slurm. --shape fsN=... gives its hosts cores, "
                        + "memory and GPUs. An up without it stops and removes that cell")
        int slurmNodes;

        @Option(names = "--slurm-remote", description = "with --slurm: that cell is remote, as fs2 is among the SGE "
                + "cells: KOALA reaches it only by SSH to its head node (an sshd there), where its site agent runs; its "
                + "compute nodes sit on a network of their own that only the head node joins, and Slurm's controller "
                + "listens there")
        boolean slurmRemote;

        @Option(names = "--programs", description = "also install the programs the tests and the experiments run on "
                + "the nodes when missing: Open MPI, mpi4py, HPC Challenge, Dask, Chromium, curl, pip (bin/koala test "
                + "does; the demo needs none of them)")
        boolean programs;

        /** The whole testbed the options describe: an option left out is its default. */
        TestbedPlan plan() {
            if (slurmRemote && slurmNodes == 0) {
                throw new IllegalArgumentException("--slurm-remote: there is no Slurm cell to make remote; add --slurm");
            }
            Set<String> remotes = remote == null ? null : remote.contains("none") ? Set.of() : remote;
            return TestbedPlan.of(clusters, nodes, slotsPerNode, remotes).withWanDelay(wanDelayMs)
                    .withSlurmCell(slurmNodes, slurmRemote).withShapes(shapes).withStore(store).withStandbyHost(standbyHost);
        }

        @Override
        public Integer call() {
            TestbedPlan plan = plan();
            Testbed testbed = testbed(System.out);
            List<String> changes = new ArrayList<>(testbed.up(plan));
            if (programs) {
                changes.addAll(testbed.installPrograms());
            }
            System.out.println(changes.isEmpty()
                    ? "Testbed already up with " + plan.cells().size() + " cells; nothing changed."
                    : "Testbed up with " + plan.cells().size() + " cells and " + plan.hosts().size() + " hosts; "
                    + changes.size() + " changes.");
            System.out.println("Grid configuration: " + testbed.gridConfig());
            System.out.println("Store: " + store(plan));
            if (plan.standbyHost()) {
                System.out.println("Standby host: " + TestbedPlan.STANDBY_NAME + " (" + TestbedPlan.STANDBY_ADDRESS
                        + "); run a command there with nsenter --net=/run/netns/" + TestbedPlan.STANDBY_NAME + " ... "
                        + "(koala.testbed.Testbed.commandOn)");
            }
            return 0;
        }

        static String store(TestbedPlan plan) {
            return plan.store() == TestbedPlan.Store.POSTGRES
                    ? "PostgreSQL, " + TestbedStore.url() + " (user " + TestbedStore.USER + ", password in "
                    + TestbedStore.PASSWORD_FILE + ")"
                    : "H2, the scheduler's own file (--store postgres: a PostgreSQL the grid's schedulers share)";
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Stop the jobs and daemons of the testbed and remove its hosts, bridges and /etc/hosts lines "
                    + "(the cells' files stay for the next up).")
    static final class Down implements Callable<Integer> {
        @Override
        public Integer call() {
            List<String> stopped = testbed(System.out).down();
            stopped.forEach(s -> System.out.println("  " + s));
            System.out.println(stopped.isEmpty() ? "Testbed was not running." : "Testbed down.");
            return 0;
        }
    }

    @Command(name = "qstat", mixinStandardHelpOptions = true,
            description = {"Run SGE's qstat in a cell of the grid with that cell's environment (SGE_ROOT, SGE_CELL, its "
                    + "qmaster's port), or in every cell in turn under a heading. A remote cell's qmaster is reached "
                    + "only from its head node, so there qstat runs on that host (entering it needs root). Everything "
                    + "after the cell goes to qstat as it is: 'koala testbed qstat fs2 -u \\* -f'.", "",
                    "Exit status: 0 when every qstat succeeded, 2 for a cell the grid does not have, 1 otherwise."})
    static final class Qstat implements Callable<Integer> {
        /** How long one cell's qstat may take: a qmaster that does not answer is not waited for longer. */
        static final java.time.Duration TIME_OUT = java.time.Duration.ofSeconds(60);

        @Option(names = "--config", paramLabel = "FILE", description = "grid configuration naming the cells "
                + "(default: ${DEFAULT-VALUE})")
        java.nio.file.Path config = KoalaHome.gridConfig();

        @Parameters(paramLabel = "[CELL] QSTAT-ARG", description = "the cell (default: every cell), then qstat's own "
                + "arguments")
        List<String> words = new java.util.ArrayList<>();

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            java.io.PrintWriter err = spec.commandLine().getErr();
            java.io.PrintWriter out = spec.commandLine().getOut();
            List<SiteConfig> sites = GridConfig.load(config).sites();
            List<SiteConfig> chosen = sites;
            List<String> args = words;
            // qstat takes no word of its own before an option: a first word that is not one names the cell
            if (!words.isEmpty() && !words.get(0).startsWith("-")) {
                String cell = words.get(0);
                chosen = sites.stream().filter(s -> s.name().equals(cell)).toList();
                if (chosen.isEmpty()) {
                    err.println("koala: no cell '" + cell + "' in " + config + " (cells: "
                            + String.join(", ", sites.stream().map(SiteConfig::name).toList()) + ")");
                    return Koala.BAD_INPUT;
                }
                args = words.subList(1, words.size());
            }
            int status = 0;
            for (SiteConfig site : chosen) {
                if (chosen.size() > 1) {
                    out.println((site == chosen.get(0) ? "" : "\n") + "== " + site.name()
                            + (site.remote() ? " (remote: on " + site.ssh().orElseThrow().host() + ")" : "") + " ==");
                }
                out.flush();
                int one = qstat(site, args, err);
                status = one == 0 ? status : Koala.FAILURE;
            }
            return status;
        }

        private static int qstat(SiteConfig site, List<String> args, java.io.PrintWriter err) throws Exception {
            if (site.remote() && !"root".equals(System.getProperty("user.name"))) {
                err.println("koala: " + site.name() + " is a remote cell whose qmaster only its head node "
                        + site.ssh().orElseThrow().host() + " reaches; entering that host needs root (sudo)");
                err.flush();
                return Koala.FAILURE;
            }
            Process p = new ProcessBuilder(LocalUser.commandLine(site, null, "qstat", args)).inheritIO().start();
            if (!p.waitFor(TIME_OUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                err.println("koala: qstat in " + site.name() + " did not answer within " + TIME_OUT.toSeconds()
                        + " s (is its qmaster up? koala testbed status)");
                err.flush();
                return Koala.FAILURE;
            }
            return p.exitValue();
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Every host with its address and daemons, every cell with its slots and jobs, what the "
                    + "testbed's daemons cost in memory, the scheduler's store (H2, or the testbed's PostgreSQL and "
                    + "whether it runs), and the wide-area delay with the round trips measured inside "
                    + "and between cells. Exit 1 when something is down.")
    static final class Status implements Callable<Integer> {
        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            TestbedStatus status = testbed(System.err).status();
            if (json) {
                System.out.println(Json.pretty(status));
                return status.up() ? 0 : 1;
            }
            if (status.cells().isEmpty()) {
                System.out.println("No testbed here (bin/koala testbed up).");
                return 1;
            }
            System.out.printf("%-6s %-6s %-7s %-24s %-6s %s%n", "CELL", "STATE", "KIND", "QMASTER", "NODES", "SLOTS / JOBS");
            for (CellStatus c : status.cells()) {
                System.out.printf("%-6s %-6s %-7s %-24s %-6s %s%n", c.name(), c.running() ? "up" : "down",
                        c.remote() ? "remote" : "local", c.head() + ":" + c.qmasterPort(), c.execds() + "/" + c.nodes(),
                        c.slotsUsed() < 0 ? "qmaster does not answer"
                                : c.slotsUsed() + "/" + c.slotsTotal() + " slots used, " + c.jobsRunning() + " running, "
                                + c.jobsPending() + " pending");
            }
            System.out.println();
            String row = status.hosts().stream().anyMatch(h -> h.role().length() > 5) ? "%-10s %-7s %-26s %-6s %s%n"
                    : "%-10s %-5s %-26s %-6s %s%n";
            System.out.printf(row, "HOST", "ROLE", "ADDRESS", "STATE", "DAEMONS");
            for (HostStatus h : status.hosts()) {
                System.out.printf(row, h.name(), h.role(), h.address(),
                        h.up() ? "up" : h.present() ? "broken" : "absent", daemons(h));
            }
            System.out.println();
            System.out.println("store  " + status.store().describe());
            System.out.printf("%nMemory: %d MB resident for %d daemons on %d hosts (qmasters, execds, SSH servers; the "
                            + "namespaces themselves cost the kernel a little more).%n", status.daemonMemory() >> 20,
                    status.hosts().stream().mapToLong(h -> h.daemons().size()).sum(), status.hosts().size());
            wan(status.wan());
            return status.up() ? 0 : 1;
        }

        private static void wan(WanStatus wan) {
            System.out.println();
            if (wan.delayMs() == 0) {
                System.out.println("Wide-area links: no delay between cells (testbed up --wan-delay 0).");
            } else if (wan.pid() == null) {
                System.out.println("Wide-area links: " + wan.delayMs() + " ms each way between cells, but the delay "
                        + "program is NOT running: traffic between cells is dropped (bin/koala testbed up restarts it).");
            } else {
                System.out.println("Wide-area links: " + wan.delayMs() + " ms each way between cells (a round trip of "
                        + 2 * wan.delayMs() + " ms), delay program pid " + wan.pid() + ".");
            }
            System.out.println("Round trips measured now (TCP connect, median of 5):");
            for (WanStatus.RoundTrip t : wan.roundTrips()) {
                System.out.printf(java.util.Locale.ROOT, "  %-14s %-22s %s%n", t.label(), t.from() + " -> " + t.to(),
                        t.medianMs() == null ? "no answer: " + t.error()
                                : String.format(java.util.Locale.ROOT, "%8.2f ms (least %.2f ms)", t.medianMs(), t.minMs()));
            }
        }

        private static String daemons(HostStatus h) {
            if (h.role().equals("koala")) {
                return "scheduler, site agents of local cells, runners, CLI";
            }
            if (h.role().equals("standby")) {
                return "a standby scheduler and its site agents, when started there";
            }
            return h.daemons().stream().map(d -> d.name() + (d.pid() == null ? " stopped"
                    : " pid " + d.pid() + " " + (d.rss() >> 20) + " MB")).collect(java.util.stream.Collectors.joining(", "));
        }
    }
}
