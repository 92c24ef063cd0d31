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
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.ComponentState;
import koala.fluent.wire.FluentMessages.Counts;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.Handover;
import koala.fluent.wire.FluentMessages.Lines;
import koala.fluent.wire.FluentMessages.Repoint;
import koala.fluent.wire.FluentMessages.Takeover;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The DeviceManager of one worker node: it runs the application components the master sends it
 * and tells the master when an application it finishes (an RL, or an SWC's counter) is done.
 * Routes: {@code POST /components} (a {@link Deploy}), {@code POST /swc/{app}/mappers/{i}/lines},
 * {@code POST /swc/{app}/counter}, {@code POST /apps/{app}/stop}, {@code GET /status}, and for
 * suspension {@code POST /apps/{app}/suspend}, {@code .../resume}, and to move a suspended word count's
 * components between DeviceManagers {@code .../handover}, {@code .../takeover}, {@code .../repoint},
 * {@code .../release} (why a move neither loses nor counts twice: {@link WordCount}). It obeys
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
                .route("POST", "/apps/{app}/handover", guarded(r -> ok(handOver(r.param("app"),
                        r.body(koala.fluent.wire.FluentMessages.HandoverRequest.class).components()))))
                .route("POST", "/apps/{app}/takeover", guarded(r -> ok(takeOver(r.param("app"),
                        r.body(Takeover.class)))))
                .route("POST", "/apps/{app}/repoint", guarded(r -> ok(repoint(r.param("app"), r.body(Repoint.class)))))
                .route("POST", "/apps/{app}/release", guarded(r -> ok(release(r.param("app")))))
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

    /**
     * Hands over the {@code wanted} components (by name: "reader", "mapper 3", "counter") of suspended
     * word count {@code app} held here: their state, for another DeviceManager to host them. Its other
     * components here are not touched: a move may take some of a worker's components and leave the rest
     * counting there. Only while suspended here (409 otherwise): the reader then
     * stands at a record boundary with no batch in flight, so the state handed over is all there is.
     * The components stay here, frozen (a batch or a report that still came would be refused, not
     * counted where nobody reads it), until the master {@link #release releases} them once their
     * taker has them: asked again, the same state is handed over, so the master can repeat a move
     * it did not finish. Holding nothing of {@code app}, it hands over nothing.
     */
    Handover handOver(String app, List<String> wanted) {
        if (wanted == null) {
            throw new InvalidField("components", "missing: name the components that leave (\"reader\", \"mapper 3\", "
                    + "\"counter\")");
        }
        java.util.Set<String> names = java.util.Set.copyOf(wanted);
        List<ComponentState> states = new java.util.ArrayList<>();
        boolean holds = readers.containsKey(app) || counters.containsKey(app)
                || mappers.keySet().stream().anyMatch(k -> k.startsWith(app + "#"));
        if (holds && !suspended.contains(app)) {
            throw new koala.common.failure.Conflict(app + " is not suspended on " + node
                    + ": a running component's state is not handed over", "app");
        }
        WordCount.Counter counter = counters.get(app);
        if (counter != null && names.contains("counter")) {
            states.add(counter.handOver());
        }
        mappers.forEach((key, mapper) -> {
            int index = key.startsWith(app + "#") ? index(key.substring(app.length() + 1)) : -1;
            if (index >= 0 && names.contains("mapper " + index)) {
                states.add(ComponentState.mapper(index, mapper.handOver()));
            }
        });
        WordCount.Reader reader = readers.get(app);
        if (reader != null && names.contains("reader")) {
            states.add(ComponentState.reader(reader.handOver()));
        }
        states.sort(java.util.Comparator.comparing(ComponentState::role).thenComparingInt(ComponentState::index));
        LOG.info("{}: handed over {} of {}", node, states.stream().map(ComponentState::name).toList(), app);
        return new Handover(app, node, states);
    }

    /**
     * Hosts components of suspended word count {@code app} handed over by another DeviceManager,
     * suspended as they were: they go on when the master resumes {@code app} here. Taking the same
     * component again replaces it (a move the master repeats).
     */
    Map<String, Object> takeOver(String app, Takeover t) {
        for (ComponentState c : t.components()) {
            switch (c.role()) {
                case "counter" -> counters.put(app, WordCount.Counter.takenOver(c.mappers(), c.counts(), c.reported()));
                case "mapper" -> mappers.put(app + "#" + c.index(),
                        WordCount.Mapper.takenOver(app, c.index(), c.counts(), required(t.counter(), "counter"),
                                master.key()));
                case "reader" -> readers.put(app, WordCount.Reader.takenOver(app, c.reader(), t.mappers().size(),
                        WordCount.Reader.http(t.mappers(), master.key(), app), error -> done(app, Map.of(), error)));
                default -> throw new InvalidField("components", "'" + c.role() + "': one of reader, mapper, counter");
            }
        }
        suspended.add(app);
        LOG.info("{}: took over {} of {}", node, t.components().stream().map(ComponentState::name).toList(), app);
        return Map.of("node", node, "app", app, "took", t.components().size());
    }

    /** Points {@code app}'s reader and mappers here at the components' new addresses; only while suspended (409). */
    Map<String, Object> repoint(String app, Repoint to) {
        if (!suspended.contains(app)) {
            throw new koala.common.failure.Conflict(app + " is not suspended on " + node + ": it is not repointed", "app");
        }
        WordCount.Reader reader = readers.get(app);
        if (reader != null && !to.mappers().isEmpty()) {
            reader.repoint(WordCount.Reader.http(to.mappers(), master.key(), app));
        }
        if (to.counter() != null) {
            mappers.forEach((key, mapper) -> {
                if (key.startsWith(app + "#")) {
                    mapper.repoint(to.counter());
                }
            });
        }
        return Map.of("node", node, "app", app);
    }

    /** Drops the components of {@code app} handed over from here (their taker has them); the others stay. */
    Map<String, Object> release(String app) {
        List<String> dropped = new java.util.ArrayList<>();
        WordCount.Reader reader = readers.get(app);
        if (reader != null && reader.handedOver()) {
            readers.remove(app);
            dropped.add("reader");
        }
        WordCount.Counter counter = counters.get(app);
        if (counter != null && counter.handedOver()) {
            counters.remove(app);
            dropped.add("counter");
        }
        mappers.entrySet().removeIf(e -> {
            boolean gone = e.getKey().startsWith(app + "#") && e.getValue().handedOver();
            if (gone) {
                dropped.add("mapper " + e.getKey().substring(app.length() + 1));
            }
            return gone;
        });
        if (!readers.containsKey(app) && !counters.containsKey(app)
                && mappers.keySet().stream().noneMatch(k -> k.startsWith(app + "#"))) {
            suspended.remove(app);
        }
        LOG.info("{}: released {} of {}", node, dropped, app);
        return Map.of("node", node, "app", app, "released", dropped);
    }

    private static String required(String value, String field) {
        if (value == null) {
            throw new InvalidField(field, "missing");
        }
        return value;
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

    private static koala.http.Response ok(Object body) {
        return koala.http.Response.ok(body);
    }
}
