package koala.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The scheduler's grow timing runs on a small grid and prints both grains and their ratio (the times are not asserted). */
class SchedulerGrowTimingTest {
    @Test
    void timesBothGrainsOnTheSameStateAndPrintsThem() {
        SchedulerGrowTiming.Result r = SchedulerGrowTiming.run(4, 5, 10, 7, 1, 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SchedulerGrowTiming.print(r, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);

        assertThat(r.grows()).isEqualTo(7);
        assertThat(r.overSites().median()).isPositive().isLessThanOrEqualTo(r.overSites().max());
        assertThat(r.onHosts().p99()).isPositive().isLessThanOrEqualTo(r.onHosts().max());
        assertThat(text).contains("4 sites x 5 hosts, 10 instances", "kept over sites (SGE chooses the host)",
                "on hosts (the host chosen and pinned)", "on hosts / over sites, median: ");
    }
}
