package koala.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class IdleExitTest {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T10:00:00Z"));
    private final InstantSource clock = () -> now.get();

    private void advance(long seconds) {
        now.set(now.get().plusSeconds(seconds));
    }

    @Test
    void anAgentPolledEveryTwoSecondsNeverIdlesAndOneForgottenForTenMinutesDoes() {
        IdleExit exit = new IdleExit(clock, Duration.ofMinutes(10));
        long requests = 0;
        for (int i = 0; i < 600; i++) { // 20 minutes of a scheduler polling
            requests += 2;
            advance(2);
            assertThat(exit.idle(requests)).isFalse();
        }
        advance(599);
        assertThat(exit.idle(requests)).isFalse();
        advance(1);
        assertThat(exit.idle(requests)).isTrue();
        // one call, e.g. a scheduler that reconnected, starts the count again
        assertThat(exit.idle(requests + 1)).isFalse();
        advance(599);
        assertThat(exit.idle(requests + 1)).isFalse();
    }

    @Test
    void anAgentNeverCalledAfterItStartedIdlesAfterTheLimit() {
        IdleExit exit = new IdleExit(clock, Duration.ofSeconds(30));
        assertThat(exit.idle(0)).isFalse();
        advance(29);
        assertThat(exit.idle(0)).isFalse();
        advance(1);
        assertThat(exit.idle(0)).isTrue();
    }
}
