package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import koala.common.time.Poll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement brings the testbed up with the plan it needs: the standby host an earlier {@code testbed up
 * --standby-host} made stays (a bench had dropped it, and the cells' qmasters then refused it as a submit host
 * when the suite made it again: FailoverIT failed), and one that was never asked for is not added.
 */
class StandbyHostKeptTest {
    private static final TestbedPlan DEFAULT = TestbedPlan.of(null, List.of(), 1, null);

    @Test
    void theRecordedTestbedsStandbyHostIsKept(@TempDir Path home) throws Exception {
        new TestbedRecord("vm", DEFAULT.withStandbyHost(true).withSlurmCell(2)).write(home);
        Testbed testbed = new Testbed(home, Progress.quiet(), Poll.system());

        TestbedPlan kept = testbed.keepingStandbyHost(DEFAULT.withWanDelay(0));

        assertThat(kept.standbyHost()).isTrue();
        assertThat(kept.wanDelayMs()).isZero();
        assertThat(kept.cells()).isEqualTo(DEFAULT.cells());
    }

    @Test
    void noStandbyHostIsAddedWhereNoneWasAskedFor(@TempDir Path home) throws Exception {
        Testbed none = new Testbed(home, Progress.quiet(), Poll.system());
        assertThat(none.keepingStandbyHost(DEFAULT).standbyHost()).isFalse();

        new TestbedRecord("vm", DEFAULT).write(home);
        assertThat(none.keepingStandbyHost(DEFAULT).standbyHost()).isFalse();
        assertThat(none.keepingStandbyHost(DEFAULT.withStandbyHost(true)).standbyHost()).isTrue();
    }
}
