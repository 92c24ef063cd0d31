package koala.fluent.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.IntStream;
import koala.common.http.ApiException;
import koala.common.http.JsonHttpClient;
import koala.common.http.JsonHttpServer;
import koala.common.http.Response;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.ComponentState;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.FluentMessages.Handover;
import koala.fluent.wire.FluentMessages.HandoverRequest;
import koala.fluent.wire.FluentMessages.Lines;
import koala.fluent.wire.FluentMessages.Repoint;
import koala.fluent.wire.FluentMessages.Takeover;
import koala.fluent.wire.Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suspended word count's components handed from one real DeviceManager to another over loopback,
 * signed with the master's key, and the counts it then gives. The file: 1000 lines "Line i of the
 * text, the end? (i mod 7)", 8 words each, 8000 words; 2 mappers: batches of 200 lines, 5 batches,
 * one every second (a 5 s stream), so that the test, not the clock, decides when it is suspended: the
 * reader has sent exactly its first batch (at its start) when it is suspended.
 */
class WordCountMoveTest {
    private static final Secret TOKEN = new Secret("instance-token");
    private static final Secret KEY = new Secret("master-key");
    private static final String APP = "j1.swc1";
    private final Map<String, AppDone> done = new ConcurrentHashMap<>();
    private final List<JsonHttpServer> servers = new ArrayList<>();
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4);
    private String a;
    private String b;
    private String c;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        JsonHttpServer master = server();
        master.route("POST", "/apps/{app}/done", Secret.required(() -> TOKEN, "the instance's token", r -> {
            done.put(r.param("app"), r.body(AppDone.class));
            return Response.ok(Map.of());
        })).route("POST", "/devices", Secret.required(() -> TOKEN, "the instance's token",
                r -> Response.ok(new DeviceWelcome(true, KEY.value()))));
        URI toMaster = URI.create("http://127.0.0.1:" + master.port());
        a = device("a", toMaster);
        b = device("b", toMaster);
        c = device("c", toMaster);
    }

    @AfterEach
    void stop() {
        servers.forEach(JsonHttpServer::close);
        executor.shutdownNow();
    }

    @Test
    void aWordCountSuspendedOnAMovedWholeToBAndResumedThereCountsExactlyTheFilesWords() throws IOException {
        Path text = text();
        // all four components on a: counter, mappers 0 and 1, then the reader, which sends batch 0 at once
        deploy(a, new Deploy(APP, "counter", 0, 5_000, 5, 0, null, List.of(a, a), null));
        deploy(a, new Deploy(APP, "mapper", 0, 5_000, 5, 0, null, List.of(), a));
        deploy(a, new Deploy(APP, "mapper", 1, 5_000, 5, 0, null, List.of(), a));
        deploy(a, new Deploy(APP, "reader", 0, 5_000, 5, 0, text.toString(), List.of(a, a), null));
        Map<?, ?> suspended = signed(a).post("/apps/" + APP + "/suspend", Map.of(), Map.class);
        assertThat(suspended.get("position")).as("the first batch sent, at its start").isEqualTo(1);

        Handover h = signed(a).post("/apps/" + APP + "/handover", new HandoverRequest(List.of("counter", "mapper 0", "mapper 1", "reader")), Handover.class);
        assertThat(h.node()).isEqualTo("a");
        assertThat(h.components()).extracting(ComponentState::name)
                .containsExactly("counter", "mapper 0", "mapper 1", "reader");
        ComponentState reader = h.components().get(3);
        assertThat(reader.reader().position()).isEqualTo(1);
        assertThat(reader.reader().left()).as("4 batches of 200 lines still to send").hasSize(4)
                .allSatisfy(batch -> assertThat(batch).hasSize(200));
        // mapper 0 has counted batch 0: 200 lines of 8 words; mapper 1 nothing yet; the counter no report
        assertThat(h.components().get(1).counts().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1600);
        assertThat(h.components().get(2).counts()).isEmpty();
        assertThat(h.components().get(0).reported()).isEmpty();
        assertThat(signed(a).post("/apps/" + APP + "/handover", new HandoverRequest(List.of("counter", "mapper 0", "mapper 1", "reader")), Handover.class))
                .as("asked again, the same state: a move can be repeated").isEqualTo(h);
        assertThatThrownBy(() -> signed(a).post("/swc/" + APP + "/mappers/1/lines", new Lines(List.of("x"), false),
                Map.class)).as("a component handed over counts nothing more")
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));

        signed(b).post("/apps/" + APP + "/takeover", new Takeover(APP, h.components(), List.of(b, b), b), Map.class);
        signed(b).post("/apps/" + APP + "/repoint", new Repoint(List.of(b, b), b), Map.class);
        signed(a).post("/apps/" + APP + "/release", Map.of(), Map.class);
        assertThat(status(a)).containsEntry("readers", List.of()).containsEntry("mappers", List.of())
                .containsEntry("counters", List.of()).containsEntry("suspended", List.of());
        assertThat(status(b).get("suspended")).asList().containsExactly(APP);

        signed(b).post("/apps/" + APP + "/resume", Map.of(), Map.class);
        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsKey(APP));
        assertCounted(text, done.get(APP), "b");
    }

    /**
     * The counter and mapper 0 on a, mapper 1 and the reader on b; b's two move to c, a's stay: the
     * reader is pointed at mapper 0 on a and mapper 1 on c, mapper 1 at the counter on a.
     */
    @Test
    void aReaderAndAMapperMovedWhileTheCounterStaysGiveTheSameCounts() throws IOException {
        Path text = text();
        deploy(a, new Deploy(APP, "counter", 0, 5_000, 5, 0, null, List.of(a, b), null));
        deploy(a, new Deploy(APP, "mapper", 0, 5_000, 5, 0, null, List.of(), a));
        deploy(b, new Deploy(APP, "mapper", 1, 5_000, 5, 0, null, List.of(), a));
        deploy(b, new Deploy(APP, "reader", 0, 5_000, 5, 0, text.toString(), List.of(a, b), null));
        for (String dm : List.of(a, b)) {
            signed(dm).post("/apps/" + APP + "/suspend", Map.of(), Map.class);
        }
        Handover h = signed(b).post("/apps/" + APP + "/handover", new HandoverRequest(List.of("mapper 1", "reader")),
                Handover.class);
        assertThat(h.components()).extracting(ComponentState::name).containsExactly("mapper 1", "reader");

        signed(c).post("/apps/" + APP + "/takeover", new Takeover(APP, h.components(), List.of(a, c), a), Map.class);
        for (String dm : List.of(a, c)) {
            signed(dm).post("/apps/" + APP + "/repoint", new Repoint(List.of(a, c), a), Map.class);
        }
        signed(b).post("/apps/" + APP + "/release", Map.of(), Map.class);
        assertThat(status(b).get("readers")).asList().isEmpty();
        for (String dm : List.of(a, c)) {
            signed(dm).post("/apps/" + APP + "/resume", Map.of(), Map.class);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsKey(APP));
        assertCounted(text, done.get(APP), "a");
    }

    /**
     * Found on the testbed: mapper 1 and the reader on b, and only the reader moves to c (mapper 1 stays on
     * b). b hands over the reader alone; mapper 1 on b goes on counting what the reader, on c, sends it;
     * releasing b drops the reader only. The counts are the file's.
     */
    @Test
    void aComponentLeftOnAWorkerOthersLeaveGoesOnCounting() throws IOException {
        Path text = text();
        deploy(a, new Deploy(APP, "counter", 0, 5_000, 5, 0, null, List.of(a, b), null));
        deploy(a, new Deploy(APP, "mapper", 0, 5_000, 5, 0, null, List.of(), a));
        deploy(b, new Deploy(APP, "mapper", 1, 5_000, 5, 0, null, List.of(), a));
        deploy(b, new Deploy(APP, "reader", 0, 5_000, 5, 0, text.toString(), List.of(a, b), null));
        for (String dm : List.of(a, b)) {
            signed(dm).post("/apps/" + APP + "/suspend", Map.of(), Map.class);
        }
        Handover h = signed(b).post("/apps/" + APP + "/handover", new HandoverRequest(List.of("reader")), Handover.class);
        assertThat(h.components()).extracting(ComponentState::name).containsExactly("reader");

        signed(c).post("/apps/" + APP + "/takeover", new Takeover(APP, h.components(), List.of(a, b), a), Map.class);
        for (String dm : List.of(a, b, c)) {
            signed(dm).post("/apps/" + APP + "/repoint", new Repoint(List.of(a, b), a), Map.class);
        }
        signed(b).post("/apps/" + APP + "/release", Map.of(), Map.class);
        assertThat(status(b)).containsEntry("readers", List.of()).containsEntry("mappers", List.of(APP + "#1"));
        for (String dm : List.of(a, b, c)) {
            signed(dm).post("/apps/" + APP + "/resume", Map.of(), Map.class);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsKey(APP));
        assertCounted(text, done.get(APP), "a");
    }

    @Test
    void aRunningComponentIsNotHandedOverNorACommandWithoutTheKeyTaken() throws IOException {
        deploy(a, new Deploy(APP, "counter", 0, 5_000, 5, 0, null, List.of(a), null));
        assertThatThrownBy(() -> signed(a).post("/apps/" + APP + "/handover", new HandoverRequest(List.of("counter")),
                Handover.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409))
                .hasMessage(APP + " is not suspended on a: a running component's state is not handed over");
        assertThatThrownBy(() -> new JsonHttpClient(URI.create(a), Duration.ofSeconds(5), TOKEN.header())
                .post("/apps/" + APP + "/release", Map.of(), Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThat(signed(b).post("/apps/" + APP + "/handover", new HandoverRequest(List.of("counter")), Handover.class)
                .components()).as("b holds nothing of it: nothing to hand over").isEmpty();
        assertThatThrownBy(() -> signed(b).post("/apps/" + APP + "/handover", Map.of(), Handover.class))
                .as("which components leave is the master's to say").isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.status()).isEqualTo(400)).hasMessageContaining("components");
    }

    private Path text() throws IOException {
        List<String> lines = IntStream.range(0, 1000).mapToObj(i -> "Line " + i + " of the text, the end? " + (i % 7))
                .toList();
        return Files.write(dir.resolve("text.txt"), lines);
    }

    private static void assertCounted(Path text, AppDone result, String node) throws IOException {
        Map<String, Long> expected = new HashMap<>();
        Files.readAllLines(text).forEach(l -> Words.count(l, expected));
        assertThat(result.error()).isNull();
        assertThat(result.node()).isEqualTo(node);
        assertThat(((Number) result.result().get("words")).longValue()).isEqualTo(8000);
        assertThat(((Number) result.result().get("distinct")).longValue()).isEqualTo(expected.size());
        assertThat(result.result().get("top")).asList().containsExactly("the=2000", "end=1000", "line=1000",
                "of=1000", "text=1000");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> status(String url) {
        return signed(url).get("/status", Map.class);
    }

    private void deploy(String url, Deploy d) {
        signed(url).post("/components", d, Map.class);
    }

    private static JsonHttpClient signed(String url) {
        return new JsonHttpClient(URI.create(url), Duration.ofSeconds(5), KEY.header());
    }

    private String device(String node, URI master) throws IOException {
        JsonHttpServer server = server();
        MasterLink link = new MasterLink(master, TOKEN, KEY, Optional::empty);
        new DeviceManager(node, link, new ReaderRoots(List.of(dir)), executor, InstantSource.system()).routes(server);
        String url = "http://127.0.0.1:" + server.port();
        link.hello(new DeviceHello(node, url, null));
        return url;
    }

    private JsonHttpServer server() throws IOException {
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 4);
        server.start();
        servers.add(server);
        return server;
    }
}
