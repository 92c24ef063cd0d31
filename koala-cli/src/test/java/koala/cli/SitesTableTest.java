package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import koala.api.scheduler.SiteResources;
import koala.api.scheduler.SiteStatus;
import org.junit.jupiter.api.Test;

/**
 * {@code koala sites}: the table, with each site's cores, memory and GPUs free/in all as the scheduler
 * summed them from its hosts (the sums are worked out in the scheduler's {@code SiteReportTest}).
 */
class SitesTableTest {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:04Z");

    @Test
    void coresMemoryAndGpusFreeAndInAllBesideTheNodesAndADashWhereNoHostReportsThem() {
        List<SiteStatus> sites = List.of(
                new SiteStatus("fs0", 24, 17, 5, 2, 1, "UP", null, AT, new SiteResources(3, 24, 17, 81920L, 59392L, 2, 1),
                        "SGE 8.1.9"),
                new SiteStatus("fs1", 8, 8, 0, 0, 0, "UP", null, AT, new SiteResources(8, 8, 8, null, null, 0, 0),
                        "slurm 22.05.8"),
                new SiteStatus("fs2", 2, 2, 0, 0, 0, "UP", null, AT, null, "SGE 8.1.9"),
                new SiteStatus("fs3", 0, 0, 0, 0, 0, "DOWN", "connection refused", AT, null));

        assertThat(JobCommands.Sites.table(sites)).isEqualTo("""
                SITE   MANAGER        NODES   IDLE  KOALA  OTHERS  CLAIMING     CORES          MEMORY    GPUS  AGENT
                fs0    SGE 8.1.9         24     17      5       2         1     17/24         58G/80G     1/2  up (seen 10:00:04 UTC)
                fs1    slurm 22.05.8      8      8      0       0         0       8/8               -     0/0  up (seen 10:00:04 UTC)
                fs2    SGE 8.1.9          2      2      0       0         0         -               -       -  up (seen 10:00:04 UTC)
                fs3    -                  0      0      0       0         0         -               -       -  DOWN: connection refused
                """);
    }

    @Test
    void memoryIsShownInTheJdfsUnits() {
        assertThat(JobCommands.Sites.memory(512L)).isEqualTo("512M");
        assertThat(JobCommands.Sites.memory(8192L)).isEqualTo("8G");
        assertThat(JobCommands.Sites.memory(60928L)).isEqualTo("59.5G");
        assertThat(JobCommands.Sites.memory(null)).isEqualTo("?");
    }
}
