package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import koala.grid.GridConfig;
import koala.scheduler.api.MetricsToken;
import koala.scheduler.config.ConfigReload;
import koala.scheduler.config.LogLevels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running scheduler's file read again: the loop takes what a clean file changes (the default
 * placement policy of the next submit, the sharing policy, the metrics token file, the orphan sweep's
 * interval, node groups), and a file that
 * fails the check changes nothing.
 */
class ReconfigurationTest {
    private static final String JOB = "&(count = 1)(executable = \"/bin/true\")";
    private static final String GRID = "grid.sites = fs0, fs1\nsite.fs0.sge.cell = fs0\nsite.fs1.sge.cell = fs1\n";

    @TempDir
    Path dir;

    @Test
    void aCleanFileIsTakenOnTheLoopAndABadOneChangesNothing() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), GRID);
        AtomicReference<GridConfig> inForce = new AtomicReference<>(GridConfig.load(file));
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 3), Duration.ofSeconds(60));
             SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor())) {
            MetricsToken token = MetricsToken.at(dir.resolve("metrics.token"));
            Reconfiguration reconfiguration = new Reconfiguration(inForce, dir, grid.scheduler, loop, token,
                    LogLevels.atStart(), Runnable::run);

            Files.writeString(file, GRID + "scheduler.placement = cluster-minimization\n"
                    + "scheduler.arbitration.policy = fair\nscheduler.metrics.tokenFile = " + dir.resolve("m2.token")
                    + "\nscheduler.port = 7500\nsite.fs1.provisioning.fMax = 8\nscheduler.sweepInterval = 5\n"
                    + "site.fs0.groups.rack.r1 = fs0-n1..fs0-n2\n");
            ConfigReload.Decision taken = reconfiguration.request().get(10, TimeUnit.SECONDS);

            assertThat(taken).isInstanceOfSatisfying(ConfigReload.Accepted.class, a -> {
                assertThat(a.applied()).extracting(ConfigReload.Change::key).containsExactlyInAnyOrder(
                        "scheduler.placement", "scheduler.arbitration.policy", "scheduler.metrics.tokenFile",
                        "site.fs1.provisioning.fMax", "scheduler.sweepInterval", "site.fs0.groups.rack.r1");
                assertThat(a.atNextStart()).extracting(ConfigReload.Change::key).containsExactly("scheduler.port");
            });

            assertThat(loop.call(() -> grid.scheduler.submit("one.jdf", JOB, "alice", null).policy()))
                    .isEqualTo("cluster-minimization");
            assertThat(loop.call(() -> grid.scheduler.sharing().settings().rule().toString())).isEqualTo("fair");
            assertThat(loop.call(() -> grid.scheduler.settings().port())).isEqualTo(7400);
            assertThat(loop.call(() -> grid.scheduler.settings().sweepEvery())).isEqualTo(Duration.ofSeconds(5));
            assertThat(token.file()).isEqualTo(dir.resolve("m2.token"));
            assertThat(inForce.get().section("site.fs1.provisioning")).containsEntry("fMax", "8");

            Files.writeString(file, GRID + "scheduler.placement = worst-fit\nscheduler.claimTimout = 90\n");
            assertThat(reconfiguration.request().get(10, TimeUnit.SECONDS)).isInstanceOf(ConfigReload.Refused.class);

            assertThat(loop.call(() -> grid.scheduler.submit("two.jdf", JOB, "alice", null).policy()))
                    .isEqualTo("cluster-minimization");
            assertThat(inForce.get().section("site.fs1.provisioning")).containsEntry("fMax", "8");
        }
    }

    /** A metrics token file that cannot be made leaves the old one in use, and the next reload tries again. */
    @Test
    void aTokenFileThatCannotBeMadeIsTriedAgainAtTheNextReload() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), GRID);
        Files.writeString(dir.resolve("plain"), "a file, not a directory");
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 3), Duration.ofSeconds(60));
             SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor())) {
            MetricsToken token = MetricsToken.at(dir.resolve("metrics.token"));
            Reconfiguration reconfiguration = new Reconfiguration(new AtomicReference<>(GridConfig.load(file)), dir,
                    grid.scheduler, loop, token, LogLevels.atStart(), Runnable::run);
            Files.writeString(file, GRID + "scheduler.metrics.tokenFile = " + dir.resolve("plain/metrics.token") + "\n");

            reconfiguration.request();
            loop.call(() -> null);
            assertThat(token.file()).isEqualTo(dir.resolve("metrics.token"));

            Files.delete(dir.resolve("plain"));
            reconfiguration.request();
            loop.call(() -> null);
            assertThat(token.file()).isEqualTo(dir.resolve("plain/metrics.token"));
        }
    }
}
