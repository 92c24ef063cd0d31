package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessStartTest {
    /** A stat line whose command name holds a space and a parenthesis; start tick 123456 = 1234.56 s after boot. */
    private static final String STAT = "4242 (java (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 5 3 0 0 20 0 12 0 123456 "
            + "3000000 2000 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0";

    @Test
    void aProcessThatStartedAtTick123456IsAsOldAsUptimeMinus1234point56Seconds() {
        assertThat(ProcessStart.sinceStart(1235.31, STAT)).isEqualTo(Duration.ofMillis(750));
    }

    @Test
    void theStartIsMeasuredBackFromTheInstantProcIsRead(@TempDir Path proc) throws Exception {
        Files.createDirectories(proc.resolve("self"));
        Files.writeString(proc.resolve("uptime"), "1236.00 2400.00\n");
        Files.writeString(proc.resolve("self/stat"), STAT);
        Instant now = Instant.parse("2026-11-23T10:00:00Z");
        assertThat(ProcessStart.of(proc, now)).contains(Instant.parse("2026-11-23T09:59:58.560Z"));
    }

    @Test
    void noProcFileSystemMeansNoStart(@TempDir Path empty) {
        assertThat(ProcessStart.of(empty, Instant.EPOCH)).isEmpty();
    }

    @Test
    void thisProcessStartedBeforeNow() {
        Instant now = Instant.now();
        assertThat(ProcessStart.of(Path.of("/proc"), now)).hasValueSatisfying(start -> assertThat(start).isBefore(now));
    }
}
