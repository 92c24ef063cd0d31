package koala.fluent.device;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import koala.common.failure.Forbidden;
import koala.common.failure.InvalidField;
import koala.common.failure.NotFound;
import koala.common.http.ApiException;
import koala.common.http.JsonHttpServer;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.Counts;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.Lines;
import koala.fluent.wire.Secret;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The DeviceManager of one worker node: it runs the application components the master sends it
 * and tells the master when an application it finishes (an RL, or an SWC's counter) is done.
 * Routes: {@code POST /components} (a {@link Deploy}), {@code POST /swc/{app}/mappers/{i}/lines},
 * {@code POST /swc/{app}/counter}, {@code POST /apps/{app}/stop}, {@code GET /status}. It obeys
 * only its master: every call needs the master's key as {@code Authorization: Bearer KEY} (401
 * otherwise, and nothing starts), which the master gave it in answer to its hello and which the
 * word-count components sign their calls to each other with. A reader reads only a regular file
 * under the {@link ReaderRoots}, and sends it only to the mappers its master named.
 */
public final class DeviceManager {
    private static final Logger LOG = LogManager.getLogger(DeviceManager.class);

    static final String KEY = "its master's key";

    private final String node;
    private final MasterLink master;
    private final ReaderRoots roots;
    private final ScheduledExecutorService executor;
    private final InstantSource clock;
    private final Map<String, VideoFilter> filters = new ConcurrentHashMap<>();
    private final Map<String, WordCount.Reader> readers = new ConcurrentHashMap<>();
    private final Map<String, WordCount.Mapper> mappers = new ConcurrentHashMap<>();
    private final Map<String, WordCount.Counter> counters = new ConcurrentHashMap<>();
    /** Word counts suspended here on the master's order: their components keep their state, the reader waits. */
    private final java.util.Set<String> suspended = ConcurrentHashMap.newKeySet();

    public DeviceManager(String node, MasterLink master, ReaderRoots roots, ScheduledExecutorService executor,
                         InstantSource clock) {
        this.node = node;
        this.master = master;
        this.roots = roots;
        this.executor = executor;
        this.clock = clock;
    }

    public void routes(JsonHttpServer server) {
        server.route("POST", "/components", guarded(r -> ok(deploy(r.body(Deploy.class)))))
                .route("POST", "/swc/{app}/mappers/{index}/lines", guarded(r -> ok(lines(r.param("app"),
                        index(r.param("index")), r.body(Lines.class)))))
                .route("POST", "/swc/{app}/counter", guarded(r -> ok(counts(r.param("app"), r.body(Counts.class)))))
                .route("POST", "/apps/{app}/stop", guarded(r -> ok(stop(r.param("app")))))
                .route("POST", "/apps/{app}/suspend", guarded(r -> ok(suspend(r.param("app")))))
                .route("POST", "/apps/{app}/resume", guarded(r -> ok(resume(r.param("app")))))
                .route("GET", "/status", guarded(r -> ok(Map.of("node", node, "rl", List.copyOf(filters.keySet()),
                        "readers", List.copyOf(readers.keySet()), "mappers", List.copyOf(mappers.keySet()),
                        "counters", List.copyOf(counters.keySet()), "suspended", List.copyOf(suspended)))));
    }

    /** The applications with a component here, in no particular order. */
    public List<String> running() {
        java.util.Set<String> apps = new java.util.HashSet<>(filters.keySet());
        apps.addAll(readers.keySet());
        apps.addAll(counters.keySet());
        mappers.keySet().forEach(k -> apps.add(k.substring(0, k.lastIndexOf('#'))));
        return List.copyOf(apps);
    }

    /**
     * Says hello to the master again with what runs here (see {@link MasterLink#beat}): the scheduled
     * beat. A master that says this worker left is final: false, and the DeviceManager ends.
     */
    public boolean beat() {
        try {
            master.beat(running());
            return true;
        } catch (ApiException e) {
            LOG.warn("{}: the master says {}; this DeviceManager ends", node, e.getMessage());
            return false;
        }
    }

    private JsonHttpServer.Handler guarded(JsonHttpServer.Handler handler) {
        return Secret.required(master::key, KEY, handler);
    }

    private Map<String, Object> deploy(Deploy d) {
        if (d.app() == null || d.role() == null) {
            throw new InvalidField(d.app() == null ? "app" : "role", "missing");
        }
        switch (d.role()) {
            case "rl" -> {
                VideoFilter filter = new VideoFilter(d.app(), Duration.ofMillis(d.durationMillis()), d.cpuPercent(),
                        Duration.ofMillis(d.loadPeriodMillis()), clock);
                filters.put(d.app(), filter);
                filter.start(executor, result -> {
                    filters.remove(d.app());
                    done(d.app(), result, null);
                });
            }
            case "counter" -> counters.put(d.app(), new WordCount.Counter(d.mappers().size()));
            case "mapper" -> mappers.put(d.app() + "#" + d.index(),
                    new WordCount.Mapper(d.app(), d.index(), d.counter(), master.key()));
            case "reader" -> startReader(d);
            default -> throw new InvalidField("role", "'" + d.role() + "': one of rl, reader, mapper, counter");
        }
        LOG.info("{}: started {} of {}", node, d.role() + (d.role().equals("mapper") ? " " + d.index() : ""), d.app());
        return Map.of("node", node, "app", d.app(), "role", d.role());
    }

    /**
     * A reader of a file under the roots, which streams it to the mappers named in the command (the
     * master's: nobody else's command gets this far); a file outside is refused (403) and nothing
     * starts. A file that cannot be read fails the application, as it would a moment later.
     */
    private void startReader(Deploy d) {
        Path file;
        try {
            file = realFile(d.file());
        } catch (IOException e) {
            done(d.app(), Map.of(), "reader of " + d.app() + " cannot read " + d.file() + ": " + e);
            return;
        }
        roots.refusal(file).ifPresent(why -> {
            throw new Forbidden("reader of " + d.app() + ": " + why, "file");
        });
        WordCount.Reader reader = new WordCount.Reader(d.app(), file, Duration.ofMillis(d.durationMillis()),
                d.mappers(), master.key());
        readers.put(d.app(), reader);
        try {
            reader.start(executor, error -> done(d.app(), Map.of(), error));
        } catch (IOException e) {
            readers.remove(d.app());
            done(d.app(), Map.of(), "reader of " + d.app() + " cannot read " + d.file() + ": " + e);
        }
    }

    private static Path realFile(String file) throws IOException {
        if (file == null || !Path.of(file).isAbsolute()) {
            throw new InvalidField("file", "'" + file + "': the reader needs an absolute path");
        }
        return Path.of(file).toRealPath();
    }

    private Map<String, Object> lines(String app, int index, Lines lines) {
        WordCount.Mapper mapper = mappers.get(app + "#" + index);
        if (mapper == null) {
            throw new NotFound("mapper " + index + " of " + app + " on " + node);
        }
        if (mapper.take(lines)) {
            mappers.remove(app + "#" + index);
            readers.remove(app);
        }
        return Map.of("taken", lines.lines().size());
    }

    private Map<String, Object> counts(String app, Counts counts) {
        WordCount.Counter counter = counters.get(app);
        if (counter == null) {
            throw new NotFound("counter of " + app + " on " + node);
        }
        Map<String, Object> result;
        try {
            result = counter.take(counts);
        } catch (IllegalArgumentException e) {
            throw new InvalidField("mapper", e.getMessage());
        }
        if (result != null) {
            counters.remove(app);
            done(app, result, null);
        }
        return Map.of("merged", counts.counts().size());
    }

    /**
     * The master suspends word count {@code app} for an RL: its reader here, if any, stops at the next
     * record boundary keeping its position; its mappers and counter here keep what they counted and
     * get nothing more meanwhile. An RL is not suspended (409).
     */
    Map<String, Object> suspend(String app) {
        if (filters.containsKey(app)) {
            throw new koala.common.failure.Conflict(app + " is an RL: only word counts are suspended", "app");
        }
        WordCount.Reader reader = readers.get(app);
        if (reader != null) {
            reader.suspend();
        }
        suspended.add(app);
        LOG.info("{}: suspended {}", node, app);
        return Map.of("suspended", app, "position", reader == null ? -1 : reader.position());
    }

    /** The master resumes {@code app}: its reader here goes on with the next batch. */
    Map<String, Object> resume(String app) {
        WordCount.Reader reader = readers.get(app);
        if (reader != null) {
            reader.resume(executor);
        }
        suspended.remove(app);
        LOG.info("{}: resumed {}", node, app);
        return Map.of("resumed", app, "position", reader == null ? -1 : reader.position());
    }

    /** The master gave up on {@code app} (it failed elsewhere): its components here end. */
    private Map<String, Object> stop(String app) {
        VideoFilter filter = filters.remove(app);
        if (filter != null) {
            filter.stop();
        }
        WordCount.Reader reader = readers.remove(app);
        if (reader != null) {
            reader.stop();
        }
        counters.remove(app);
        suspended.remove(app);
        mappers.keySet().removeIf(key -> key.startsWith(app + "#"));
        return Map.of("stopped", app);
    }

    /** Tells the master, off the caller's thread: the caller may be serving the master itself. */
    private void done(String app, Map<String, Object> result, String error) {
        executor.execute(() -> {
            try {
                master.done(app, new AppDone(node, result, error));
                LOG.info("{}: {} {}", node, app, error == null ? "done: " + result : "failed: " + error);
            } catch (RuntimeException e) {
                LOG.warn("{}: could not tell the master that {} is done: {}", node, app, e.getMessage());
            }
        });
    }

    private static int index(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new InvalidField("index", "'" + text + "' is not a mapper number");
        }
    }

    private static koala.common.http.Response ok(Object body) {
        return koala.common.http.Response.ok(body);
    }
}
