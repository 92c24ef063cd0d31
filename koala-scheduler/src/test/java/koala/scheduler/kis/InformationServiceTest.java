package koala.scheduler.kis;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import koala.api.site.AgentSecret;
import koala.api.site.SiteAgentClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InformationServiceTest {
    private final AgentSecret secret = AgentSecret.random();
    private final CountDownLatch fs1Asked = new CountDownLatch(1);
    private final List<HttpServer> servers = new java.util.ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    /**
     * fs0's agent answers only once fs1's has been asked (5 s at most): polled one after the other, fs0 would
     * say it answered alone; polled at once, it says it heard of fs1.
     */
    @Test
    void everySiteIsPolledAtOnceSoThatASlowAgentHoldsUpNoOther() throws Exception {
        Map<String, SiteAgentClient> agents = new LinkedHashMap<>();
        agents.put("fs0", agent(exchange -> {
            boolean together = await(fs1Asked);
            answer(exchange, "fs0", together ? "heard of fs1" : "alone");
        }));
        agents.put("fs1", agent(exchange -> {
            fs1Asked.countDown();
            answer(exchange, "fs1", "asked");
        }));
        InstantSource clock = InstantSource.fixed(Instant.parse("2026-12-06T12:00:00Z"));
        try (InformationService kis = new InformationService(agents, clock, Executors.newSingleThreadScheduledExecutor())) {
            kis.pollAll();

            assertThat(kis.site("fs0").orElseThrow().health().reason()).isEqualTo("heard of fs1");
            assertThat(kis.site("fs1").orElseThrow().health().reason()).isEqualTo("asked");
        }
    }

    /**
     * fs0's agent does not answer its first poll until the test ends (as a call under way through an SSH link
     * that just dropped, until its time-out); meanwhile fs1 is polled again and again, every 20 ms.
     */
    @Test
    void aSiteWhosePollHangsHoldsUpNoOtherSitesNextPolls() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        CountDownLatch fs1PolledThrice = new CountDownLatch(3);
        Map<String, SiteAgentClient> agents = new LinkedHashMap<>();
        agents.put("fs0", agent(exchange -> {
            await(released);
            answer(exchange, "fs0", "late");
        }));
        agents.put("fs1", agent(exchange -> {
            fs1PolledThrice.countDown();
            answer(exchange, "fs1", "asked");
        }));
        try (InformationService kis = new InformationService(agents, InstantSource.system(),
                Executors.newSingleThreadScheduledExecutor())) {
            kis.start(java.time.Duration.ofMillis(20));

            assertThat(fs1PolledThrice.await(4, TimeUnit.SECONDS)).as("fs1 polled 3 times while fs0's poll hangs")
                    .isTrue();
            assertThat(kis.site("fs0")).isEmpty();
        } finally {
            released.countDown();
        }
    }

    /** fs2's SSH link drops after its last poll: it is shown down at once, with why; back as polled once it is up. */
    @Test
    void aSiteCutOffIsShownDownAtOnceWithWhy() throws Exception {
        java.util.concurrent.atomic.AtomicReference<java.util.Optional<String>> cut =
                new java.util.concurrent.atomic.AtomicReference<>(java.util.Optional.empty());
        Map<String, SiteAgentClient> agents = Map.of("fs2", agent(exchange -> answer(exchange, "fs2", "polled")));
        InstantSource clock = InstantSource.fixed(Instant.parse("2026-12-06T12:00:00Z"));
        try (InformationService kis = new InformationService(List.of("fs2"), agents, site -> cut.get(), clock,
                Executors.newSingleThreadScheduledExecutor())) {
            kis.pollAll();
            cut.set(java.util.Optional.of("SSH connection to koala@fs2-head:22 lost; reconnecting"));

            assertThat(kis.site("fs2").orElseThrow().error()).isEqualTo("SSH connection to koala@fs2-head:22 lost; "
                    + "reconnecting");
            assertThat(kis.site("fs2").orElseThrow().up()).isFalse();

            cut.set(java.util.Optional.empty());
            assertThat(kis.site("fs2").orElseThrow().health().reason()).isEqualTo("polled");
        }
    }

    /**
     * fs3 is seen whole (2 hosts of 2 cores) at 12:00, then with fs3-n2 missing (its slurmd registering
     * again): at 12:04 and at 12:10 exactly it is still kept at 4 cores; at 12:10:01, ten minutes and a
     * second after it was last seen whole, it is taken at its 2. Seen whole again at 12:08, the ten
     * minutes count from then.
     */
    @Test
    void aSiteIsKeptAtItsLargestForTenMinutesAfterItWasLastSeenSo() {
        SiteInfo whole = fs3("12:00:00", 2, 2);
        assertThat(InformationService.larger(whole, fs3("12:04:00", 2))).isSameAs(whole);
        assertThat(InformationService.larger(whole, fs3("12:10:00", 2))).isSameAs(whole);
        SiteInfo after = fs3("12:10:01", 2);
        assertThat(InformationService.larger(whole, after)).isSameAs(after);

        SiteInfo again = fs3("12:08:00", 2, 2);
        assertThat(InformationService.larger(whole, again)).isSameAs(again);
        assertThat(InformationService.larger(again, fs3("12:18:00", 2))).isSameAs(again);
    }

    /** fs3 as seen at {@code time} of today, up, with hosts of these cores. */
    private static SiteInfo fs3(String time, int... cores) {
        List<koala.api.site.QueueInstance> queues = new java.util.ArrayList<>();
        for (int i = 0; i < cores.length; i++) {
            queues.add(new koala.api.site.QueueInstance("batch@fs3-n" + (i + 1), "fs3-n" + (i + 1), cores[i], 0, 0, true,
                    ""));
        }
        Instant at = Instant.parse("2026-12-06T" + time + "Z");
        return new SiteInfo("fs3", new koala.api.site.AgentHealth("fs3", "fs3", "UP", null, at, "Slurm", 0),
                new koala.api.site.CellSnapshot("fs3", at, List.of(), queues, List.of()), null, at);
    }

    private SiteAgentClient agent(Handler health) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/health", exchange -> health.handle(exchange));
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        servers.add(server);
        return new SiteAgentClient(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), secret);
    }

    /** A cell that is down, with {@code reason}: the service asks for no snapshot then. */
    private static void answer(HttpExchange exchange, String site, String reason) throws IOException {
        byte[] body = ("{\"site\":\"" + site + "\",\"cell\":\"" + site + "\",\"status\":\"DOWN\",\"reason\":\"" + reason
                + "\",\"since\":\"2026-12-06T11:00:00Z\",\"drmSystem\":\"SGE\",\"pilotsTracked\":0}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }
}
