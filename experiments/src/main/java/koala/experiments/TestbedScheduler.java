package koala.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import koala.api.scheduler.SchedulerClient;
import koala.cli.TestbedUser;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.scheduler.SchedulerDaemon;

/**
 * The scheduler a testbed experiment runs its instances on: the one serving the testbed's grid, or,
 * when none answers, one started for the experiment and stopped when it closes. Its grid is the
 * configuration {@code testbed up} wrote.
 */
final class TestbedScheduler implements AutoCloseable {
    private final Path gridFile;
    private final SchedulerClient client;
    /** The scheduler started here, or null: one was running. */
    private final SchedulerDaemon own;

    private TestbedScheduler(Path gridFile, SchedulerClient client, SchedulerDaemon own) {
        this.gridFile = gridFile;
        this.client = client;
        this.own = own;
    }

    /** The testbed's scheduler, or none when the testbed has no grid configuration (said on {@code o}). */
    static Optional<TestbedScheduler> open(PrintStream o) throws IOException {
        Path gridFile = KoalaHome.gridConfig();
        if (!Files.isReadable(gridFile)) {
            o.println("koala: no grid configuration at " + gridFile + "; bring the testbed up (bin/koala testbed up)");
            return Optional.empty();
        }
        GridConfig grid = GridConfig.load(gridFile);
        SchedulerClient client = TestbedUser.client(grid);
        SchedulerDaemon own = GrowBenchCommand.reachable(client) ? null : SchedulerDaemon.start(grid, KoalaHome.dir());
        return Optional.of(new TestbedScheduler(gridFile, client, own));
    }

    /** The grid configuration the instances' runners read. */
    Path gridFile() {
        return gridFile;
    }

    /** The scheduler as the testbed's user calls it. */
    SchedulerClient client() {
        return client;
    }

    /** Which scheduler this is, for the experiment's report. */
    String describe() {
        return own == null ? "the one running at " + client.base() : "started here, " + own.url();
    }

    /** Stops the scheduler started here, if one was. */
    @Override
    public void close() {
        if (own != null) {
            own.close();
        }
    }
}
