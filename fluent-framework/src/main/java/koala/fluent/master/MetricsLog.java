package koala.fluent.master;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.fluent.WorkerTime;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.FluentMessages.MetricsSample;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The instance's metrics, kept for {@code GET /metrics} and, when the master has a log folder,
 * written there: {@code metrics.csv} (one sample per sample period: allocated and busy workers,
 * their CPU, the application counters), {@code workers.csv} (each worker's busy and idle seconds,
 * rewritten each sample) and {@code events.log} (the master's decisions, one JSON line each).
 */
final class MetricsLog {
    static final String HEADER = "at,allocated,busy,cpuPercent,accepted,queued,rejected,finished,waiting,running";
    private static final Logger LOG = LogManager.getLogger(MetricsLog.class);
    private static final int KEEP = 20_000;

    private final Optional<Path> dir;
    private final List<MetricsSample> samples = new ArrayList<>();
    private Map<String, WorkerTime> workerTime = Map.of();

    MetricsLog(Optional<Path> dir) {
        this.dir = dir;
        // a restarted master goes on with its predecessor's file
        dir.filter(d -> !Files.isRegularFile(d.resolve("metrics.csv")))
                .ifPresent(d -> write("metrics.csv", HEADER + "\n", StandardOpenOption.TRUNCATE_EXISTING));
    }

    void sample(MetricsSample s, Map<String, WorkerTime> workers) {
        if (samples.size() == KEEP) {
            samples.remove(0);
        }
        samples.add(s);
        workerTime = Map.copyOf(workers);
        LOG.info("METRICS allocated={} busy={} cpu={}% accepted={} queued={} rejected={} finished={} waiting={}",
                s.allocated(), s.busy(), Math.round(s.cpuPercent()), s.accepted(), s.queued(), s.rejected(),
                s.finished(), s.waiting());
        write("metrics.csv", String.format(java.util.Locale.ROOT, "%s,%d,%d,%.1f,%d,%d,%d,%d,%d,%d%n", s.at(),
                s.allocated(), s.busy(), s.cpuPercent(), s.accepted(), s.queued(), s.rejected(), s.finished(),
                s.waiting(), s.running()), StandardOpenOption.APPEND);
        StringBuilder csv = new StringBuilder("worker,busySeconds,idleSeconds\n");
        workerTime.forEach((w, t) -> csv.append(w).append(',').append(seconds(t.busy())).append(',')
                .append(seconds(t.idle())).append('\n'));
        write("workers.csv", csv.toString(), StandardOpenOption.TRUNCATE_EXISTING);
    }

    void event(String line) {
        write("events.log", line + "\n", StandardOpenOption.APPEND);
    }

    MetricsReport report() {
        Map<String, double[]> seconds = new LinkedHashMap<>();
        workerTime.forEach((w, t) -> seconds.put(w, new double[] {seconds(t.busy()), seconds(t.idle())}));
        return new MetricsReport(samples, seconds);
    }

    private static double seconds(java.time.Duration d) {
        return d.toMillis() / 1000.0;
    }

    private void write(String file, String text, StandardOpenOption how) {
        dir.ifPresent(d -> {
            try {
                Files.createDirectories(d);
                Files.writeString(d.resolve(file), text, StandardOpenOption.CREATE, how, StandardOpenOption.WRITE);
            } catch (IOException e) {
                LOG.warn("cannot write {}: {}", d.resolve(file), e.toString());
            }
        });
    }
}
