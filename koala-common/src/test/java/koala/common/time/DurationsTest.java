package koala.common.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
    @Test
    void millisecondsBelowASecondWholeSecondsAndFractions() {
        assertThat(Durations.text(Duration.ofMillis(300))).isEqualTo("300 ms");
        assertThat(Durations.text(Duration.ofSeconds(5))).isEqualTo("5 s");
        assertThat(Durations.text(Duration.ofMillis(1500))).isEqualTo("1.5 s");
        assertThat(Durations.text(Duration.ofMillis(2250))).isEqualTo("2.25 s");
    }
}
