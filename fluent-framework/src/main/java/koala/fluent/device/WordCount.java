package koala.fluent.device;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import koala.common.http.JsonHttpClient;
import koala.fluent.wire.FluentMessages.Counts;
import koala.fluent.wire.FluentMessages.Lines;
import koala.fluent.wire.Secret;

/**
 * The SWC application, streaming word count, as three kinds of components that may sit on
 * different DeviceManagers: the reader streams its file's lines, in batches spread evenly over
 * the application's duration, round-robin to the 2^n mappers; each mapper counts the words of
 * what it gets and, at the end of the stream, sends its counts to the counter; the counter merges
 * them and, once every mapper has reported, finishes the application. The components sign their
 * calls to each other with the master's key, which every DeviceManager of the instance holds.
 */
final class WordCount {
    /** Lines per batch, at most; a short file still gives every mapper a batch when it has enough lines. */
    static final int BATCH = 200;
    private static final Duration CALL = Duration.ofSeconds(30);

    private WordCount() {
    }

    static String linesPath(String app, int mapper) {
        return "/swc/" + app + "/mappers/" + mapper + "/lines";
    }

    static String countsPath(String app) {
        return "/swc/" + app + "/counter";
    }

    /** Where a reader's batches go: {@code lines} to mapper {@code index}. */
    interface Sink {
        void send(int mapper, Lines lines);
    }

    /**
     * Streams {@code file} to the mappers; started last, once the mappers and the counter are in
     * place. It can be suspended on its master's order: it stops at a record boundary — between two
     * batches of whole lines, never inside one — keeping its position, while the mappers keep the
     * words counted so far; resumed, it goes on with the next batch.
     */
    static final class Reader {
        private final String app;
        private final Path file;
        private final Duration duration;
        private final int mappers;
        private final Sink sink;
        private List<List<String>> batches = List.of();
        private long gapMillis;
        private Consumer<String> failed = e -> { };
        /** The next batch to send: the position a suspension keeps; batches.size() sends the end. */
        private int next;
        private boolean suspended;
        private boolean stopped;
        private boolean ended;

        Reader(String app, Path file, Duration duration, List<String> mapperUrls, Secret key) {
            this(app, file, duration, mapperUrls.size(), http(mapperUrls, key, app));
        }

        Reader(String app, Path file, Duration duration, int mappers, Sink sink) {
            this.app = app;
            this.file = file;
            this.duration = duration;
            this.mappers = mappers;
            this.sink = sink;
        }

        private static Sink http(List<String> mapperUrls, Secret key, String app) {
            List<JsonHttpClient> clients = new ArrayList<>();
            mapperUrls.forEach(url -> clients.add(new JsonHttpClient(URI.create(url), CALL, key.header())));
            return (m, lines) -> clients.get(m).post(linesPath(app, m), lines, Map.class);
        }

        /** Reads the file now (an unreadable one fails at once), then streams it on {@code executor}. */
        void start(ScheduledExecutorService executor, Consumer<String> failed) throws IOException {
            List<String> lines = Files.readAllLines(file);
            synchronized (this) {
                this.batches = batches(lines, mappers);
                this.gapMillis = duration.toMillis() / Math.max(1, batches.size());
                this.failed = failed;
            }
            send(executor);
        }

        synchronized void stop() {
            stopped = true;
        }

        /** Stops after the batch being sent, if any: the next one waits for {@link #resume}. */
        synchronized void suspend() {
            suspended = true;
        }

        /** Goes on from where it was suspended: the next batch now, on the caller's thread, the rest as before. */
        void resume(ScheduledExecutorService executor) {
            synchronized (this) {
                if (!suspended) {
                    return;
                }
                suspended = false;
            }
            send(executor);
        }

        synchronized boolean isSuspended() {
            return suspended;
        }

        /** Batches sent so far. */
        synchronized int position() {
            return next;
        }

        /**
         * Sends the next batch (or, after the last, the end to every mapper); false when suspended,
         * stopped or ended, having sent nothing. A suspension waits for the batch being sent.
         */
        synchronized boolean step() {
            if (stopped || suspended || ended) {
                return false;
            }
            if (next == batches.size()) {
                for (int m = 0; m < mappers; m++) {
                    sink.send(m, new Lines(List.of(), true));
                }
                ended = true;
                return false;
            }
            int m = next % mappers;
            sink.send(m, new Lines(batches.get(next), false));
            next++;
            return true;
        }

        private void send(ScheduledExecutorService executor) {
            try {
                if (step()) {
                    executor.schedule(() -> send(executor), gapMillis, TimeUnit.MILLISECONDS);
                }
            } catch (RuntimeException e) {
                failed.accept("reader of " + app + " could not reach a mapper: " + e.getMessage());
            }
        }

        static List<List<String>> batches(List<String> lines, int mappers) {
            int size = Math.max(1, Math.min(BATCH, lines.size() / Math.max(1, mappers)));
            List<List<String>> batches = new ArrayList<>();
            for (int i = 0; i < lines.size(); i += size) {
                batches.add(List.copyOf(lines.subList(i, Math.min(lines.size(), i + size))));
            }
            return batches;
        }
    }

    /** Counts the words of the lines it is sent; at the end of the stream, sends them to the counter. */
    static final class Mapper {
        private final String app;
        private final int index;
        private final JsonHttpClient counter;
        private final Map<String, Long> counts = new HashMap<>();

        Mapper(String app, int index, String counterUrl, Secret key) {
            this.app = app;
            this.index = index;
            this.counter = new JsonHttpClient(URI.create(counterUrl), CALL, key.header());
        }

        /** True once the stream has ended and the counts went to the counter. */
        synchronized boolean take(Lines lines) {
            lines.lines().forEach(line -> Words.count(line, counts));
            if (lines.end()) {
                counter.post(countsPath(app), new Counts(index, counts), Map.class);
            }
            return lines.end();
        }
    }

    /** Merges the mappers' counts; finishes the application when all have reported. */
    static final class Counter {
        private final int mappers;
        private final Map<String, Long> counts = new HashMap<>();
        private final boolean[] reported;
        private int reports;

        Counter(int mappers) {
            this.mappers = mappers;
            this.reported = new boolean[mappers];
        }

        /** The result once the last mapper has reported, else null. */
        synchronized Map<String, Object> take(Counts from) {
            if (from.mapper() < 0 || from.mapper() >= mappers || reported[from.mapper()]) {
                throw new IllegalArgumentException("mapper " + from.mapper() + " is not a mapper of this counter "
                        + "or has already reported");
            }
            reported[from.mapper()] = true;
            from.counts().forEach((word, n) -> counts.merge(word, n, Long::sum));
            return ++reports < mappers ? null : result(counts);
        }

        static Map<String, Object> result(Map<String, Long> counts) {
            long total = counts.values().stream().mapToLong(Long::longValue).sum();
            List<String> top = counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .limit(5).map(e -> e.getKey() + "=" + e.getValue()).toList();
            return Map.of("words", total, "distinct", counts.size(), "top", top);
        }
    }
}
