package koala.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import koala.grid.ConfigCheck;
import koala.grid.ConfigProblem;
import koala.grid.GridConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a running scheduler does with its file read again on {@code SIGHUP}, as worked examples: the
 * file in force, the file read again (checked as {@code koala config check} does), and what is
 * applied, what waits for the next start, what is refused.
 */
class ConfigReloadTest {
    private static final String GRID = "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n";

    @TempDir
    Path dir;

    private Map<String, String> inForce(String text) throws Exception {
        return GridConfig.load(Files.writeString(dir.resolve("started.properties"), text)).values();
    }

    private ConfigReload.Decision reload(Map<String, String> inForce, String text) throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), text);
        ConfigCheck.Report report = SchedulerConfigCheck.check(file, dir);
        return ConfigReload.decide(inForce, report.grid().map(GridConfig::values).orElse(Map.of()), report.problems());
    }

    private static List<String> described(List<ConfigReload.Change> changes) {
        return changes.stream().map(ConfigReload.Change::describe).toList();
    }

    /** The placement policy changes at once; the port only when the scheduler starts again. */
    @Test
    void aLiveKeyIsAppliedAndAPortWaitsForTheNextStart() throws Exception {
        ConfigReload.Accepted accepted = (ConfigReload.Accepted) reload(inForce(GRID + "scheduler.port = 7400\n"),
                GRID + "scheduler.port = 7500\nscheduler.placement = cluster-minimization\n");

        assertThat(described(accepted.applied())).containsExactly(
                "scheduler.placement changed from its default (worst-fit) to cluster-minimization: applied");
        assertThat(described(accepted.atNextStart())).containsExactly(
                "scheduler.port changed from 7400 to 7500: takes effect at the next start");
        assertThat(accepted.inForce()).containsEntry("scheduler.port", "7400")
                .containsEntry("scheduler.placement", "cluster-minimization");
    }

    /**
     * The settings in force keep the port the scheduler started with, so the next reload of the same
     * file names the waiting change again and applies nothing.
     */
    @Test
    void aChangeThatWaitsIsNamedAgainAtEveryReloadUntilARestart() throws Exception {
        String edited = GRID + "scheduler.port = 7500\nscheduler.placement = cluster-minimization\n";
        ConfigReload.Accepted first = (ConfigReload.Accepted) reload(inForce(GRID + "scheduler.port = 7400\n"), edited);

        ConfigReload.Accepted again = (ConfigReload.Accepted) reload(first.inForce(), edited);

        assertThat(again.applied()).isEmpty();
        assertThat(described(again.atNextStart())).containsExactly(
                "scheduler.port changed from 7400 to 7500: takes effect at the next start");
    }

    /** A typo refuses the whole file, the good edit beside it too: the configuration in force stays. */
    @Test
    void aFileWithAnUnknownKeyIsRefusedWhole() throws Exception {
        ConfigReload.Decision decision = reload(inForce(GRID),
                GRID + "scheduler.placement = cluster-minimization\nscheduler.claimTimout = 90\n");

        assertThat(decision).isInstanceOf(ConfigReload.Refused.class);
        assertThat(((ConfigReload.Refused) decision).problems()).extracting(ConfigProblem::toString).containsExactly(
                dir.resolve("grid.properties") + ":4: scheduler.claimTimout: unknown key; did you mean "
                        + "scheduler.claimTimeout?");
    }

    @Test
    void aBadValueIsRefusedWholeInTheWordsOfTheCodeThatReadsIt() throws Exception {
        ConfigReload.Decision decision = reload(inForce(GRID), GRID + "scheduler.arbitration.policy = fiar\n"
                + "site.fs0.provisioning.uMin = 60\n");

        assertThat(((ConfigReload.Refused) decision).problems()).extracting(ConfigProblem::toString).containsExactly(
                dir.resolve("grid.properties") + ":3: scheduler.arbitration.policy: 'fiar' is not one of: fcfs, "
                        + "static-partition, fair, performance",
                dir.resolve("grid.properties") + ":4: site.fs0.provisioning.uMax: 50 must be above uMin (60); uMax "
                        + "from default, uMin from site fs0");
    }

    /**
     * A new site waits for the next start (the agents, the information service and the catalogue of
     * sites are made at start), its provisioning defaults are taken at once — used once it is there.
     */
    @Test
    void aNewSiteWaitsForTheNextStart() throws Exception {
        ConfigReload.Accepted accepted = (ConfigReload.Accepted) reload(inForce(GRID), "grid.sites = fs0, fs1\n"
                + "site.fs0.sge.cell = fs0\nsite.fs1.sge.cell = fs1\nsite.fs1.provisioning.fMax = 8\n");

        assertThat(described(accepted.applied())).containsExactly(
                "site.fs1.provisioning.fMax changed from its default (20) to 8: applied");
        assertThat(described(accepted.atNextStart())).containsExactly(
                "grid.sites changed from fs0 to fs0, fs1: takes effect at the next start",
                "site.fs1.sge.cell changed from unset to fs1: takes effect at the next start");
    }

    /** Sharing, provisioning, the metrics token, log levels and the file catalog: all live. */
    @Test
    void everyLiveKindOfKeyIsApplied() throws Exception {
        ConfigReload.Accepted accepted = (ConfigReload.Accepted) reload(inForce(GRID
                        + "scheduler.arbitration.policy = fcfs\nscheduler.logLevel = info\nscheduler.placementTries = 150\n"),
                GRID + "scheduler.arbitration.policy = fair\nscheduler.arbitration.patience = 60\n"
                        + "site.fs0.provisioning.fMax = 12\nscheduler.metrics.tokenFile = /etc/koala/metrics.token\n"
                        + "scheduler.logLevel.koala.scheduler.kis = debug\nfiles = a.dat\nfile.a.dat.size = 4G\n"
                        + "bandwidth.default = 40\nscheduler.keepEnded = 60\n");

        assertThat(described(accepted.applied())).containsExactly(
                "bandwidth.default changed from its default (100) to 40: applied",
                "file.a.dat.size changed from its default (0) to 4G: applied",
                "files changed from its default (none) to a.dat: applied",
                "scheduler.arbitration.patience changed from its default (0) to 60: applied",
                "scheduler.arbitration.policy changed from fcfs to fair: applied",
                "scheduler.keepEnded changed from its default (600) to 60: applied",
                "scheduler.logLevel changed from info to its default (KOALA_LOG_LEVEL, else info): applied",
                "scheduler.logLevel.koala.scheduler.kis changed from its default (its parent logger's) to debug: applied",
                "scheduler.metrics.tokenFile changed from its default (KOALA_HOME/metrics.token) to "
                        + "/etc/koala/metrics.token: applied",
                "scheduler.placementTries changed from 150 to its default (150): applied",
                "site.fs0.provisioning.fMax changed from its default (20) to 12: applied");
        assertThat(accepted.atNextStart()).isEmpty();
        assertThat(accepted.inForce()).doesNotContainKeys("scheduler.logLevel", "scheduler.placementTries");
    }

    @Test
    void theSameFileChangesNothing() throws Exception {
        ConfigReload.Accepted accepted = (ConfigReload.Accepted) reload(inForce(GRID + "scheduler.port = 7400\n"),
                GRID + "scheduler.port = 7400 \n");

        assertThat(accepted.unchanged()).isTrue();
    }

    /** Removing a restart key waits too: the running scheduler keeps its value until it starts again. */
    @Test
    void aRemovedKeyIsAChangeToItsDefault() throws Exception {
        ConfigReload.Accepted accepted = (ConfigReload.Accepted) reload(inForce(GRID
                + "scheduler.database = /srv/koala/db\nscheduler.placement = close-to-files\n"), GRID);

        assertThat(described(accepted.applied())).containsExactly(
                "scheduler.placement changed from close-to-files to its default (worst-fit): applied");
        assertThat(described(accepted.atNextStart())).containsExactly("scheduler.database changed from /srv/koala/db "
                + "to its default (KOALA_HOME/scheduler/koala): takes effect at the next start");
        assertThat(accepted.inForce()).containsEntry("scheduler.database", "/srv/koala/db")
                .doesNotContainKey("scheduler.placement");
    }
}
