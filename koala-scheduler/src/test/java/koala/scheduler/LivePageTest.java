package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.auth.Identity;
import koala.auth.TokenKey;
import koala.auth.Tokens;
import koala.http.Endpoint;
import koala.http.JsonHttpServer;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.SchedulerApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page as HTTP serves it: open to anyone who reaches the users' listener (it holds no data),
 * with a policy that lets only its own inline script and style run; its data, the API's routes,
 * only for a caller with a token. The grid's address has no page.
 */
class LivePageTest {
    @TempDir
    Path dir;

    private TestGrid grid;
    private SchedulerLoop loop;
    private JsonHttpServer local;
    private JsonHttpServer network;
    private String aliceToken;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void serve() throws Exception {
        grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60));
        loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor());
        TokenKey key = TokenKey.in(dir.resolve("token.key"));
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                + "alice:x:1002:1002::/home/alice:/bin/sh\n");
        Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock);
        aliceToken = new Tokens(key).issue(new Identity("alice", 1002), grid.clock.instant(), Duration.ofHours(1));
        local = new JsonHttpServer(List.of(Endpoint.loopback("local", 0)), 4);
        SchedulerApi.Operations ops = new LoopOperations(grid.scheduler.parts(), loop, key);
        SchedulerApi.register(local, ops, callers, AuditLog.in(dir.resolve("audit.log"), grid.clock));
        local.start();
        network = new JsonHttpServer(List.of(Endpoint.loopback("network", 0)), 4);
        SchedulerApi.registerNodes(network, ops);
        network.start();
    }

    @AfterEach
    void stop() {
        local.close();
        network.close();
        loop.close();
        grid.close();
    }

    @Test
    void thePageIsServedToAnyoneUnderAPolicyThatRunsOnlyItsOwnScriptAndStyle() throws Exception {
        HttpResponse<String> page = get(local, "/", null);

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<title>KOALA — live</title>");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'none'; script-src "
                + hash("script", page.body()) + "; style-src " + hash("style", page.body())
                + "; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(get(local, "/live", null).body()).isEqualTo(page.body());
    }

    @Test
    void itsDataNeedsAToken() throws Exception {
        for (String route : List.of("/sites", "/jobs", "/frameworks")) {
            assertThat(get(local, route, null).statusCode()).as(route).isEqualTo(401);
            assertThat(get(local, route, "koala1.forged.token").statusCode()).as(route).isEqualTo(401);
            HttpResponse<String> answer = get(local, route, aliceToken);
            assertThat(answer.statusCode()).as(route).isEqualTo(200);
            assertThat(answer.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        }
    }

    @Test
    void theGridsAddressHasNoPage() throws Exception {
        assertThat(get(network, "/", null).statusCode()).isEqualTo(404);
        assertThat(get(network, "/live", null).statusCode()).isEqualTo(404);
    }

    /** The hash a CSP source gives the page's one inline {@code element}, computed here apart from {@code LivePage}. */
    private static String hash(String element, String html) throws Exception {
        Matcher m = Pattern.compile("<" + element + ">(.*?)</" + element + ">", Pattern.DOTALL).matcher(html);
        assertThat(m.find()).isTrue();
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(m.group(1).getBytes(StandardCharsets.UTF_8));
        return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
    }

    private HttpResponse<String> get(JsonHttpServer server, String path, String bearer) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
