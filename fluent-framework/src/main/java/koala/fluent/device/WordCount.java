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
import koala.common.failure.Conflict;
import koala.fluent.wire.FluentMessages.ComponentState;
import koala.fluent.wire.FluentMessages.Counts;
import koala.fluent.wire.FluentMessages.Lines;
import koala.fluent.wire.FluentMessages.ReaderState;
import koala.fluent.wire.Secret;
import koala.http.JsonHttpClient;

/**
 * The SWC application, streaming word count, as three kinds of components that may sit on
 * different DeviceManagers: the reader streams its file's lines, in batches spread evenly over
 * the application's duration, round-robin to the 2^n mappers; each mapper counts the words of
 * what it gets and, at the end of the stream, sends its counts to the counter; the counter merges
 * them and, once every mapper has reported, finishes the application. The components sign their
 * calls to each other with the master's key, which every DeviceManager of the instance holds.
 *
 * <p>A suspended word count can move: each component hands over its state (the reader its position
 * and the batches it still has to send, a mapper its counts, the counter what it merged and who
 * reported) and another DeviceManager hosts it from that state. Nothing is counted twice or lost,
 * because nothing is in flight while it is suspended: every call between components is synchronous
 * (a batch is counted by its mapper before the reader's call returns, and a mapper's counts are
 * merged by the counter before the mapper's call returns, inside the reader's call with the end), and
 * the reader's {@link Reader#suspend} waits for the batch being sent. So once the reader is suspended
 * the mappers have counted every batch sent and none other is coming; the end either has not been
 * sent (no mapper has reported) or has been sent to all (the counter has every report). A component
 * handed over refuses what still reaches it, so that a stray call fails loudly instead of counting
 * where nobody reads.
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
        private Sink sink;
        /** The batches from {@link #base} on: all of them, or those a reader taken over still had to send. */
        private List<List<String>> batches = List.of();
        private int base;
        private long gapMillis;
        private Consumer<String> failed = e -> { };
        /** The next batch to send: the position a suspension keeps; batches.size() sends the end. */
        private int next;
        private boolean suspended;
        private boolean stopped;
        /** Handed to another DeviceManager: it sends nothing more from here. */
        private boolean handedOver;
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

        static Sink http(List<String> mapperUrls, Secret key, String app) {
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

        /**
         * Its state, to be handed to another DeviceManager: only while suspended, when no batch is in
         * flight (a suspension waits for the batch being sent, and a mapper has counted a batch when
         * its call returns). A reader handed over sends nothing more, even if resumed here by mistake.
         */
        synchronized ReaderState handOver() {
            if (!suspended) {
                throw new Conflict("the reader of " + app + " runs: only a suspended reader is handed over", "app");
            }
            stopped = true;
            handedOver = true;
            return new ReaderState(file.toString(), next, batches.subList(next - base, batches.size()), gapMillis,
                    ended);
        }

        /** A reader taken over from another DeviceManager, suspended where it was: the next batch is {@code state.position()}. */
        static Reader takenOver(String app, ReaderState state, int mappers, Sink sink, Consumer<String> failed) {
            Reader reader = new Reader(app, Path.of(state.file()), Duration.ZERO, mappers, sink);
            reader.batches = state.left();
            reader.base = state.position();
            reader.next = state.position();
            reader.gapMillis = state.gapMillis();
            reader.ended = state.ended();
            reader.suspended = true;
            reader.failed = failed;
            return reader;
        }

        /** Sends to these mappers from now on (some moved while it was suspended). */
        synchronized void repoint(Sink to) {
            this.sink = to;
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

        synchronized boolean handedOver() {
            return handedOver;
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
            if (next - base == batches.size()) {
                for (int m = 0; m < mappers; m++) {
                    sink.send(m, new Lines(List.of(), true));
                }
                ended = true;
                return false;
            }
            int m = next % mappers;
            sink.send(m, new Lines(batches.get(next - base), false));
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
        private final Secret key;
        private JsonHttpClient counter;
        private final Map<String, Long> counts = new HashMap<>();
        /** Handed to another DeviceManager: a batch that still came here would be counted where nobody reads it. */
        private boolean handedOver;

        Mapper(String app, int index, String counterUrl, Secret key) {
            this.app = app;
            this.index = index;
            this.key = key;
            this.counter = client(counterUrl, key);
        }

        /** A mapper taken over with the counts it had so far. */
        static Mapper takenOver(String app, int index, Map<String, Long> counted, String counterUrl, Secret key) {
            Mapper mapper = new Mapper(app, index, counterUrl, key);
            mapper.counts.putAll(counted);
            return mapper;
        }

        /** True once the stream has ended and the counts went to the counter. */
        synchronized boolean take(Lines lines) {
            if (handedOver) {
                throw new Conflict("mapper " + index + " of " + app + " was handed to another DeviceManager", "app");
            }
            lines.lines().forEach(line -> Words.count(line, counts));
            if (lines.end()) {
                counter.post(countsPath(app), new Counts(index, counts), Map.class);
            }
            return lines.end();
        }

        /** Its counts so far, handed over: it takes nothing more here. */
        synchronized Map<String, Long> handOver() {
            handedOver = true;
            return Map.copyOf(counts);
        }

        synchronized boolean handedOver() {
            return handedOver;
        }

        synchronized void repoint(String counterUrl) {
            this.counter = client(counterUrl, key);
        }

        private static JsonHttpClient client(String url, Secret key) {
            return new JsonHttpClient(URI.create(url), CALL, key.header());
        }
    }

    /** Merges the mappers' counts; finishes the application when all have reported. */
    static final class Counter {
        private final int mappers;
        private final Map<String, Long> counts = new HashMap<>();
        private final boolean[] reported;
        private int reports;
        private boolean handedOver;

        Counter(int mappers) {
            this.mappers = mappers;
            this.reported = new boolean[mappers];
        }

        /** A counter taken over with what it had merged and which mappers had reported. */
        static Counter takenOver(int mappers, Map<String, Long> merged, List<Integer> reported) {
            Counter counter = new Counter(mappers);
            counter.counts.putAll(merged);
            reported.forEach(m -> counter.reported[m] = true);
            counter.reports = reported.size();
            return counter;
        }

        /** The result once the last mapper has reported, else null. */
        synchronized Map<String, Object> take(Counts from) {
            if (handedOver) {
                throw new IllegalArgumentException("this counter was handed to another DeviceManager");
            }
            if (from.mapper() < 0 || from.mapper() >= mappers || reported[from.mapper()]) {
                throw new IllegalArgumentException("mapper " + from.mapper() + " is not a mapper of this counter "
                        + "or has already reported");
            }
            reported[from.mapper()] = true;
            from.counts().forEach((word, n) -> counts.merge(word, n, Long::sum));
            return ++reports < mappers ? null : result(counts);
        }

        synchronized boolean handedOver() {
            return handedOver;
        }

        /** What it has merged and who reported, handed over: it takes nothing more here. */
        synchronized ComponentState handOver() {
            handedOver = true;
            List<Integer> who = new ArrayList<>();
            for (int m = 0; m < mappers; m++) {
                if (reported[m]) {
                    who.add(m);
                }
            }
            return ComponentState.counter(counts, who, mappers);
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
