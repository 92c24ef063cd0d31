package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LinkTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Duration MOST = Duration.ofSeconds(30);

    @Test
    void failuresInARowBackOffOneTwoFourEightSixteenThenThirtySeconds() {
        assertThat(java.util.stream.IntStream.rangeClosed(1, 8).mapToObj(n -> Link.backoff(n, MOST))
                .map(Duration::toSeconds)).containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
        Link link = Link.initial();
        assertThat(link.due(T0)).isTrue();
        link = link.failed("refused", T0, MOST).failed("refused", T0.plusSeconds(1), MOST).failed("refused", T0.plusSeconds(3), MOST);
        assertThat(link.failures()).isEqualTo(3);
        assertThat(link.nextTry()).isEqualTo(T0.plusSeconds(7));
        assertThat(link.due(T0.plusSeconds(6))).isFalse();
        assertThat(link.due(T0.plusSeconds(7))).isTrue();
    }

    @Test
    void aLostConnectionIsTriedAgainWithinASecondAndAConnectionResetsTheCount() {
        Link link = Link.initial().failed("x", T0, MOST).failed("x", T0, MOST).connected();
        assertThat(link.up()).isTrue();
        assertThat(link.due(T0.plusSeconds(100))).isFalse();
        Link lost = link.lost("SSH connection lost", T0.plusSeconds(100));
        assertThat(lost.up()).isFalse();
        assertThat(lost.reason()).isEqualTo("SSH connection lost at 2026-01-01T10:01:40Z");
        assertThat(lost.nextTry()).isEqualTo(T0.plusSeconds(101));
        Link retried = lost.failed("refused", T0.plusSeconds(101), MOST);
        assertThat(retried.nextTry()).isEqualTo(T0.plusSeconds(102));
        assertThat(retried.failed("refused (try 2)", T0.plusSeconds(102), MOST).reason()).as("the loss stays in the reason")
                .isEqualTo("SSH connection lost at 2026-01-01T10:01:40Z; reconnecting: refused (try 2)");
        assertThat(retried.connected().failed("refused", T0.plusSeconds(200), MOST).reason()).isEqualTo("refused");
    }

    @Test
    void aSiteWithARetryMaxOfFiveTriesAgainEveryFiveSecondsOnceTheWaitsReachIt() {
        Duration five = Duration.ofSeconds(5);
        assertThat(java.util.stream.IntStream.rangeClosed(1, 6).mapToObj(n -> Link.backoff(n, five))
                .map(Duration::toSeconds)).containsExactly(1L, 2L, 4L, 5L, 5L, 5L);
        Link link = Link.initial();
        for (int i = 0; i < 5; i++) {
            link = link.failed("no route to host", T0, five);
        }
        assertThat(link.nextTry()).isEqualTo(T0.plusSeconds(5));
    }
}
