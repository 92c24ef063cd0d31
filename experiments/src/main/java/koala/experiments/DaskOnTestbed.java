package koala.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import koala.api.scheduler.SchedulerClient;
import koala.cli.TestbedCommand;
import koala.cli.TestbedUser;
import koala.grid.Accounts;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.scheduler.SchedulerDaemon;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;

/**
 * Runs one of the checkout's Dask programs ({@code python/testbed/*.py}) on the testbed with Debian's
 * Dask and the repository's Python package: the testbed up, a scheduler (the one running, or one of
 * its own for the run), a directory every node sees, and the environment the program reads.
 */
final class DaskOnTestbed {
    private DaskOnTestbed() {
    }

    /**
     * @param program its file under {@code python/testbed}
     * @param more    the program's own variables, given the grid
     * @return the program's exit status
     */
    static int run(String program, Function<GridConfig, Map<String, String>> more) throws Exception {
        Path checkout = checkout(program);
        Testbed testbed = TestbedCommand.testbed(System.out);
        testbed.up(testbed.keepingStandbyHost(TestbedPlan.of(null, List.of(), 1, null)));
        testbed.installPrograms(); // Dask, which the demo's testbed leaves out
        GridConfig grid = GridConfig.load(testbed.gridConfig());
        SchedulerClient client = TestbedUser.client(grid);
        SchedulerDaemon own = GrowBenchCommand.reachable(client) ? null : SchedulerDaemon.start(grid, KoalaHome.dir());
        try {
            String user = TestbedUser.actingFor(grid);
            Path dir = Accounts.directoryOf(user, "koala-" + program.replace(".py", "").replace('_', '-') + "-"
                    + Long.toHexString(System.nanoTime()));
            ProcessBuilder python = new ProcessBuilder("/usr/bin/python3",
                    checkout.resolve("python/testbed").resolve(program).toString()).inheritIO().directory(dir.toFile());
            Map<String, String> env = new HashMap<>(Map.of("PYTHONPATH", checkout.resolve("python").toString(),
                    "KOALA_CONFIG", testbed.gridConfig().toString(), "KOALA_AS", user,
                    "KOALA_BIN", checkout.resolve("bin/koala").toString(), "WORK_DIR", dir.toString()));
            env.putAll(more.apply(grid));
            python.environment().putAll(env);
            return python.start().waitFor();
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    /** A cell's SGE variables as {@code NAME=VALUE;...}, for the cell's own commands run by the program. */
    static String sgeEnvironment(SiteConfig cell) {
        return cell.cell().variables().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(";"));
    }

    /** The checkout this bin/koala runs from: the Dask programs are there, not in the package. */
    private static Path checkout(String program) {
        String launcher = System.getenv("KOALA_LAUNCHER");
        Path root = launcher == null ? null : Path.of(launcher).toAbsolutePath().getParent().getParent();
        if (root == null || !Files.isRegularFile(root.resolve("python/testbed").resolve(program))) {
            throw new IllegalStateException("this runs from a checkout (bin/koala), whose python/ folder it uses; "
                    + "this one was started as " + launcher);
        }
        return root;
    }
}
