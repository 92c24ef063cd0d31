package koala.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * CPU use of a process tree, read from {@code /proc}: what a node launcher reports in its
 * heartbeats and what Proactive provisioning averages over the workers. A sample is the CPU time
 * the entity and everything below it have used so far (user + system, including children they
 * have waited for); the utilization between two samples is that time over the wall time between
 * them, as a share of the node's cores, in percent.
 */
public final class CpuSampler {
    /** CPU seconds used by the tree up to {@code at}. */
    public record Sample(Instant at, double cpuSeconds) {
    }

    /** Clock ticks per second of {@code /proc/PID/stat} times; 100 on every Linux KOALA runs on. */
    static final double TICKS_PER_SECOND = 100.0;

    private final long root;
    private final Path proc;
    private final int cores;
    private final InstantSource clock;

    public CpuSampler(long root, Path proc, int cores, InstantSource clock) {
        this.root = root;
        this.proc = proc;
        this.cores = cores;
        this.clock = clock;
    }

    public static CpuSampler of(long root) {
        return new CpuSampler(root, Path.of("/proc"), Runtime.getRuntime().availableProcessors(), InstantSource.system());
    }

    public Sample sample() {
        Instant at = clock.instant();
        double ticks = ticks(root) + ProcessHandle.of(root).stream().flatMap(ProcessHandle::descendants)
                .mapToDouble(p -> ticks(p.pid())).sum();
        return new Sample(at, ticks / TICKS_PER_SECOND);
    }

    /** Percent of the node's cores used between two samples; empty when no time passed. */
    public OptionalDouble utilization(Sample from, Sample to) {
        double wall = Duration.between(from.at(), to.at()).toNanos() / 1e9;
        if (wall <= 0) {
            return OptionalDouble.empty();
        }
        double used = Math.max(0, to.cpuSeconds() - from.cpuSeconds());
        return OptionalDouble.of(Math.min(100.0, 100.0 * used / (wall * cores)));
    }

    private double ticks(long pid) {
        try {
            return parseTicks(Files.readString(proc.resolve(Long.toString(pid)).resolve("stat")));
        } catch (IOException e) {
            return 0; // the process ended between listing and reading: its time went to its parent
        }
    }

    /**
     * utime + stime + cutime + cstime from a {@code /proc/PID/stat} line. The command name in
     * parentheses may hold spaces, so fields are counted after the last ')': state is field 3,
     * utime 14, stime 15, cutime 16, cstime 17.
     */
    static double parseTicks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return Stream.of(f[11], f[12], f[13], f[14]).mapToDouble(Double::parseDouble).sum();
    }
}
