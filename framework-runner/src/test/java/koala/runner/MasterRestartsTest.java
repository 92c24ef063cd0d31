package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The worked example of {@link MasterRestarts}: max 3, stable 60 s. */
class MasterRestartsTest {
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    @Test
    void aMasterThatKeepsDyingWithinAMinuteIsGivenUpAfterThreeRestarts() {
        MasterRestarts restarts = new MasterRestarts(3, Duration.ofSeconds(60));
        restarts.reportedIn(T.minusSeconds(300));

        MasterRestarts.Decision first = restarts.died(T, "its entity exited with status 137", true);
        assertThat(first).isEqualTo(new MasterRestarts.Decision(true, 1, "master lost (its entity exited with "
                + "status 137); restarting it on its node (restart 1 of 3)"));
        restarts.reportedIn(T.plusSeconds(1));
        assertThat(restarts.died(T.plusSeconds(30), "no heartbeat for 4 s", false)).isEqualTo(new MasterRestarts.Decision(
                true, 2, "master lost (no heartbeat for 4 s); restarting it on a new node (restart 2 of 3)"));
        restarts.reportedIn(T.plusSeconds(31));
        assertThat(restarts.died(T.plusSeconds(40), "x", true).attempt()).isEqualTo(3);
        restarts.reportedIn(T.plusSeconds(41));

        MasterRestarts.Decision last = restarts.died(T.plusSeconds(60), "its entity exited with status 1", true);
        assertThat(last.restart()).isFalse();
        assertThat(last.reason()).isEqualTo("its master was lost (its entity exited with status 1) and could not be "
                + "restarted: it died 4 times, each within 60 s of its start");
    }

    @Test
    void aMasterThatRanAMinuteStartsTheCountAgain() {
        MasterRestarts restarts = new MasterRestarts(3, Duration.ofSeconds(60));
        restarts.reportedIn(T);
        restarts.died(T.plusSeconds(10), "x", true);
        restarts.reportedIn(T.plusSeconds(11));
        restarts.died(T.plusSeconds(20), "x", true);
        restarts.reportedIn(T.plusSeconds(21));
        restarts.died(T.plusSeconds(30), "x", true);
        restarts.reportedIn(T.plusSeconds(41));
        // 10:00:41 + 60 s: exactly stable is enough
        assertThat(restarts.died(T.plusSeconds(101), "x", true).attempt()).isEqualTo(1);
    }

    @Test
    void aRestartThatNeverCameUpCountsAsADeath() {
        MasterRestarts restarts = new MasterRestarts(1, Duration.ofSeconds(60));
        restarts.reportedIn(T);
        assertThat(restarts.died(T.plusSeconds(100), "x", false).restart()).isTrue();
        MasterRestarts.Decision none = restarts.failedToStart(T.plusSeconds(400), "no node for it");
        assertThat(none.restart()).isFalse();
        assertThat(none.reason()).contains("(no node for it)").contains("died 2 times");
    }
}
