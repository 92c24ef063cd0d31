package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import koala.api.scheduler.NodeReport;
import org.junit.jupiter.api.Test;

class WallTimeTest {
    @Test
    void aCommandPastItsWallTimeIsStoppedAndReportedAsSuch() throws Exception {
        Process sleeper = new ProcessBuilder("/bin/sleep", "60").start();
        assertThat(NodeLauncher.finish(sleeper, Duration.ofMillis(300))).isEqualTo(NodeReport.PAST_WALL_TIME);
        assertThat(sleeper.isAlive()).isFalse();
    }

    @Test
    void aCommandWithinItsWallTimeEndsWithItsOwnStatus() throws Exception {
        Process quick = new ProcessBuilder("/bin/sh", "-c", "exit 3").start();
        assertThat(NodeLauncher.finish(quick, Duration.ofSeconds(30))).isEqualTo(3);
    }

    @Test
    void noWallTimeMeansNoLimit() throws Exception {
        assertThat(NodeLauncher.finish(new ProcessBuilder("/bin/true").start(), null)).isZero();
    }
}
