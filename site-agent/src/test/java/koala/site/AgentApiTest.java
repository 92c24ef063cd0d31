package koala.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import koala.api.site.AgentHealth;
import koala.api.site.AgentSecret;
import koala.api.site.PilotSpec;
import koala.api.site.SiteAgentClient;
import koala.grid.CellEnvironment;
import koala.grid.DrmaaInstall;
import koala.grid.SiteConfig;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.resourcemanager.FakeResourceManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's API over HTTP, with an agent that never reaches its cluster (it is never started, so
 * its connection to the manager is never opened): every route refuses a caller without the secret, and lets in one with it.
 */
class AgentApiTest {
    static final SiteConfig SITE = new SiteConfig("fs0", new CellEnvironment(Path.of("/var/lib/gridengine"), "fs0",
            6444, 6445, Path.of("/bin")), "koala", 0, "", 1, DrmaaInstall.debian(), Optional.empty());

    private final AgentSecret secret = AgentSecret.random();
    private JsonHttpServer server;
    private SiteAgent agent;
    private URI base;

    @BeforeEach
    void serve() throws Exception {
        ManualTimer timer = new ManualTimer(Instant.parse("2026-01-01T10:00:00Z"));
        agent = new SiteAgent(SITE, new FakeResourceManager(2), timer, new SiteAgent.Threads(timer, timer, timer, timer),
                AgentMain.TIMING, () -> { });
        server = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        AgentApi.register(server, new CallerCheck(secret), agent, Optional.empty());
        server.start();
        base = URI.create("http://127.0.0.1:" + server.port());
    }

    @AfterEach
    void stop() {
        server.close();
        agent.close();
    }

    private HttpResponse<String> call(String method, String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
                .method(method, method.equals("POST") ? HttpRequest.BodyPublishers.ofString(
                        "{\"name\": \"koala-x\", \"command\": \"/bin/true\"}") : HttpRequest.BodyPublishers.noBody());
        headers.forEach(request::header);
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyRouteRefusesACallerWithoutTheSecretWith401AndAReason() throws Exception {
        for (String[] route : new String[][] {{"GET", "/health"}, {"GET", "/snapshot"}, {"POST", "/pilots"},
                {"GET", "/pilots"}, {"GET", "/pilots/17"}, {"DELETE", "/pilots/17"}, {"POST", "/relays"}, {"GET", "/relays"},
                {"DELETE", "/relays/45001"}}) {
            HttpResponse<String> response = call(route[0], route[1], Map.of());

            assertThat(response.statusCode()).as(route[0] + " " + route[1]).isEqualTo(401);
            assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
            assertThat(response.body()).contains("\"error\"").contains("Authorization: Bearer <secret>");
        }
    }

    @Test
    void aWrongSecretIsRefusedAndNothingIsDone() throws Exception {
        String wrong = "Bearer " + AgentSecret.random().value();

        HttpResponse<String> submit = call("POST", "/pilots", Map.of("Authorization", wrong));
        HttpResponse<String> health = call("GET", "/health", Map.of("Authorization", wrong));

        assertThat(submit.statusCode()).isEqualTo(401);
        assertThat(submit.body()).contains("wrong secret in the Authorization header");
        assertThat(health.statusCode()).isEqualTo(401);
        assertThat(new SiteAgentClient(base, secret).pilots()).isEmpty();
    }

    @Test
    void theRightSecretIsLetIn() {
        SiteAgentClient client = new SiteAgentClient(base, secret);

        AgentHealth health = client.health();

        assertThat(health.status()).isEqualTo("DOWN");
        assertThat(health.reason()).isEqualTo("not checked yet");
        assertThat(client.pilots()).isEmpty();
        // past the check, the agent itself answers: its cell has not been reached
        assertThatThrownBy(() -> client.submit(PilotSpec.of("koala-x", "/bin/true")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503));
    }

    @Test
    void aRemoteSitesAgentOpensRelaysForItsCaller(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        try (Relays relays = new Relays("fs0-head", InetAddress.getLoopbackAddress(),
                Optional.of(new AgentStateFile(dir.resolve("agent.state"))), 8, Executors.newCachedThreadPool(),
                Duration.ofSeconds(1));
             JsonHttpServer remote = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4)) {
            AgentApi.register(remote, new CallerCheck(secret), agent, Optional.of(relays));
            remote.start();
            SiteAgentClient client = new SiteAgentClient(URI.create("http://127.0.0.1:" + remote.port()), secret);

            koala.api.site.RelayAddress relay = client.relay(45001, 0);

            assertThat(relay.host()).isEqualTo("fs0-head");
            assertThat(relay.target()).isEqualTo(45001);
            assertThat(client.relay(45001, 0)).isEqualTo(relay);
            assertThat(client.relays()).containsExactly(relay);
            assertThatThrownBy(() -> new SiteAgentClient(URI.create("http://127.0.0.1:" + remote.port()),
                    AgentSecret.random()).relay(45002, 0)).isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.status()).isEqualTo(401));
            assertThat(client.relays()).as("nothing opened for a stranger").hasSize(1);

            // its instance ended: the relay is closed, and a second close finds none
            assertThat(client.closeRelay(relay.port())).isTrue();
            assertThat(client.relays()).isEmpty();
            assertThat(client.closeRelay(relay.port())).isFalse();
        }
    }

    @Test
    void anAgentStartedWithoutARelayHostRunsNoRelays() {
        SiteAgentClient client = new SiteAgentClient(base, secret);

        assertThatThrownBy(() -> client.relay(45001, 0)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(404);
            assertThat(e.getMessage()).startsWith("this agent runs no relays: it was started without --relay-host");
        });
    }

    @Test
    void aClientWithAnotherSecretGetsA401AsAnApiException() {
        SiteAgentClient stranger = new SiteAgentClient(base, AgentSecret.random());

        assertThatThrownBy(stranger::health).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(401);
            assertThat(e.getMessage()).isEqualTo("wrong secret in the Authorization header");
        });
    }
}
