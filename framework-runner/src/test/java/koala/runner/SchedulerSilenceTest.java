package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SchedulerSilenceTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void givesUpAfterTheSchedulerHasBeenSilentForTheWholeTime() {
        SchedulerSilence silence = new SchedulerSilence(Duration.ofSeconds(300));
        assertThat(silence.answered(T0)).isEmpty();
        assertThat(silence.silent(T0.plusSeconds(1))).isFalse();
        assertThat(silence.began(T0.plusSeconds(1))).isTrue();
        assertThat(silence.silent(T0.plusSeconds(2))).isFalse();
        assertThat(silence.began(T0.plusSeconds(2))).isFalse();
        assertThat(silence.silent(T0.plusSeconds(300))).isFalse();
        assertThat(silence.silent(T0.plusSeconds(301))).isTrue();
    }

    @Test
    void anAnswerEndsTheSilenceAndTheCountStartsAfresh() {
        SchedulerSilence silence = new SchedulerSilence(Duration.ofSeconds(300));
        silence.silent(T0);
        assertThat(silence.silent(T0.plusSeconds(299))).isFalse();
        assertThat(silence.answered(T0.plusSeconds(299))).contains("the scheduler answers again after 299 s");
        assertThat(silence.silent(T0.plusSeconds(400))).isFalse();
        assertThat(silence.silent(T0.plusSeconds(700))).isTrue();
    }
}
