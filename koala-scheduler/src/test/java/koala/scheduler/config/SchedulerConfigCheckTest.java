package koala.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import koala.grid.ConfigProblem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole check: the catalogue's, then what the scheduler, the sharing and the provisioning policies refuse. */
class SchedulerConfigCheckTest {
    @TempDir
    Path dir;

    /** {@code SchedulerSettings.from} stops at its first bad value; the check reads on past each to find them all. */
    @Test
    void everyValueTheSchedulerWouldRefuseAtStartIsFound() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), """
                grid.sites = fs0
                site.fs0.sge.cell = fs0
                scheduler.placement = best-fit
                scheduler.keepEnded = 600
                scheduler.retention = 60
                scheduler.accounting = usage.jsonl
                scheduler.arbitration.policy = fair
                scheduler.arbitration.maxTakeBack = 150
                site.fs0.provisioning.provisioning = eager
                site.fs0.provisioning.uMin = 70
                site.fs0.provisioning.uMax = 60
                """);

        assertThat(SchedulerConfigCheck.check(file, dir).problems()).extracting(ConfigProblem::toString).containsExactly(
                file + ":3: scheduler.placement = best-fit: not a placement policy; known: worst-fit, close-to-files, "
                        + "cluster-minimization, flexible-cluster-minimization",
                file + ":5: scheduler.retention: must be at least scheduler.keepEnded (600 s)",
                file + ":6: scheduler.accounting = usage.jsonl: must be the absolute path of a file",
                file + ":8: scheduler.arbitration.maxTakeBack: 150% is not above 0% and at most 100%",
                file + ":9: site.fs0.provisioning.provisioning: 'eager' is not one of: static, ondemand, proactive, "
                        + "reserve, pool",
                file + ":11: site.fs0.provisioning.uMax: 60 must be above uMin (70)");
    }

    @Test
    void aGoodFileIsClean() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n"
                + "scheduler.placement = Cluster-Minimization\nscheduler.arbitration.policy = fair\n"
                + "site.fs0.provisioning.fMax = 12\nscheduler.logLevel = debug\n");

        assertThat(SchedulerConfigCheck.check(file, dir).problems()).isEmpty();
    }
}
