package koala.cli;

import java.io.PrintStream;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Callable;
import koala.common.grid.KoalaHome;
import koala.common.json.Json;
import koala.common.time.Poll;
import koala.testbed.CellStatus;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "testbed", mixinStandardHelpOptions = true,
        description = "A local multicluster testbed: several independent SGE cells on this machine (needs root).",
        subcommands = {TestbedCommand.Up.class, TestbedCommand.Down.class, TestbedCommand.Status.class})
final class TestbedCommand {

    static Testbed testbed(PrintStream out) {
        return new Testbed(KoalaHome.dir(), new Progress(out, InstantSource.system()), Poll.system());
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = {"Install Debian's gridengine packages if missing, create the account 'koala' that site "
                    + "agents submit as, and start each cell's qmaster and execd. Idempotent: on a running testbed "
                    + "it changes nothing and says so. Writes the grid configuration (KOALA_HOME/grid.properties)."})
    static final class Up implements Callable<Integer> {
        @Option(names = "--clusters", description = "number of cells (default: 3, or as many as --slots lists)")
        Integer clusters;

        @Option(names = "--slots", split = ",", paramLabel = "S",
                description = "slots per cell, one slot standing for one node (default: 16,8,8,...)")
        List<Integer> slots = List.of();

        @Override
        public Integer call() {
            TestbedPlan plan = TestbedPlan.of(clusters, slots);
            Testbed testbed = testbed(System.out);
            List<String> changes = testbed.up(plan);
            System.out.println(changes.isEmpty()
                    ? "Testbed already up with " + plan.cells().size() + " cells; nothing changed."
                    : "Testbed up with " + plan.cells().size() + " cells; " + changes.size() + " changes.");
            System.out.println("Grid configuration: " + testbed.gridConfig());
            return 0;
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Stop the jobs, execds and qmasters of the testbed's cells (their files stay for the next up).")
    static final class Down implements Callable<Integer> {
        @Override
        public Integer call() {
            List<String> stopped = testbed(System.out).down();
            stopped.forEach(s -> System.out.println("  " + s));
            System.out.println(stopped.isEmpty() ? "Testbed was not running." : "Testbed down.");
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Each cell: its ports, daemons, slots and jobs.")
    static final class Status implements Callable<Integer> {
        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            List<CellStatus> cells = testbed(System.err).status();
            if (json) {
                System.out.println(Json.pretty(cells));
                return 0;
            }
            if (cells.isEmpty()) {
                System.out.println("No testbed here (bin/koala testbed up).");
                return 0;
            }
            System.out.printf("%-6s %-6s %-18s %-18s %-12s %s%n", "CELL", "STATE", "QMASTER", "EXECD", "SLOTS", "JOBS");
            for (CellStatus c : cells) {
                System.out.printf("%-6s %-6s %-18s %-18s %-12s %s%n", c.name(), c.running() ? "up" : "down",
                        daemon(c.qmasterPort(), c.qmasterPid()), daemon(c.execdPort(), c.execdPid()),
                        c.slotsUsed() < 0 ? "-/" + c.slotsTotal() : c.slotsUsed() + "/" + c.slotsTotal() + " used",
                        c.slotsUsed() < 0 ? "-" : c.jobsRunning() + " running, " + c.jobsPending() + " pending");
            }
            return cells.stream().allMatch(CellStatus::running) ? 0 : 1;
        }

        private static String daemon(int port, Long pid) {
            return ":" + port + (pid == null ? " stopped" : " pid " + pid);
        }
    }
}
