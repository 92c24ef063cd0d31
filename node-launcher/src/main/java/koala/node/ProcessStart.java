package koala.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When this process started, to the clock tick. {@code ProcessHandle.info().startInstant()} adds
 * the start's ticks since boot to the boot time, which Linux gives in whole seconds, so it may be
 * up to a second off: too coarse to split a grow's overhead between SGE's dispatch and the
 * launcher's JVM start. Here the start is measured back from {@code now} with the time since boot
 * ({@code /proc/uptime}, hundredths of a second) and the process's start tick
 * ({@code /proc/self/stat}, field 22, in USER_HZ, which is 100 on Linux).
 */
final class ProcessStart {
    private static final double TICKS_PER_SECOND = 100;

    private ProcessStart() {
    }

    /** This process's start, given the instant {@code now} at which {@code /proc} is read; empty where there is none. */
    static Optional<Instant> of(Path proc, Instant now) {
        try {
            double uptime = Double.parseDouble(Files.readString(proc.resolve("uptime")).trim().split("\\s+")[0]);
            return Optional.of(now.minus(sinceStart(uptime, Files.readString(proc.resolve("self/stat")))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** How long ago a process started whose {@code stat} line is this, {@code uptime} seconds after boot. */
    static Duration sinceStart(double uptime, String stat) {
        // the command name (field 2) may hold spaces and parentheses: count fields from its closing one
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        double started = Long.parseLong(after[22 - 3]) / TICKS_PER_SECOND;
        return Duration.ofMillis(Math.max(0, Math.round((uptime - started) * 1000)));
    }
}
