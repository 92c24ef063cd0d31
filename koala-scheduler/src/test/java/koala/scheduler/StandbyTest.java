package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.auth.Identity;
import koala.auth.TokenKey;
import koala.auth.Tokens;
import koala.auth.Vouchers;
import koala.common.net.FreePort;
import koala.http.ApiException;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.MetricsToken;
import koala.scheduler.storage.LeaderLease;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standby, head2:4711, and the scheduler leading the grid, head1:17 (a {@link ServedScheduler} with the same
 * token key): the standby passes its users' calls on to the leader, which does them as theirs; it makes
 * tokens itself, refuses the key's rotation, and shows Prometheus that it does not lead.
 */
class StandbyTest {
    private static final String JDF = "&(count = 1)(executable = \"/bin/true\")";

    @TempDir
    Path dir;

    private ServedScheduler leader;
    private Standby standby;
    private URI loopback;
    private Path socket;
    private String metricsToken;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void serve() throws Exception {
        leader = ServedScheduler.serve(Files.createDirectories(dir.resolve("head1")));
        MetricsToken token = MetricsToken.at(dir.resolve("metrics.token"));
        metricsToken = Files.readString(token.file()).strip();
        int port = FreePort.any();
        loopback = URI.create("http://127.0.0.1:" + port);
        socket = dir.resolve("run").resolve("scheduler.sock");
        standby = Standby.serve(socket, port, loopback, token.alone(), token.alone(), new Standby.Users("head2:4711",
                leader.callers(), AuditLog.in(dir.resolve("standby-audit.log"), java.time.InstantSource.system())));
    }

    @AfterEach
    void stop() {
        standby.close();
        leader.close();
    }

    private void leaderIsHead1(URI at) {
        standby.leader(Optional.of(new LeaderLease.Holder("head1:17", at.toString(), 4, true)));
    }

    /** What the test's root asks through the standby's socket, acting for alice. */
    private SchedulerClient aliceAtTheStandby() {
        return new SchedulerClient(URI.create("unix:" + socket)).actingFor("alice");
    }

    @Test
    void aUsersCallToAStandbyIsDoneByTheLeaderAsTheirsAndItsAuditLogSaysThroughWhichStandby() throws Exception {
        leaderIsHead1(leader.relayedAt());

        JobView submitted = aliceAtTheStandby().submit(new SubmitRequest("one.jdf", JDF, "r-1"));

        JobView atTheLeader = leader.asRoot().job(submitted.id());
        assertThat(atTheLeader.owner()).isEqualTo("alice");
        assertThat(aliceAtTheStandby().jobs()).extracting(JobView::id).containsExactly(submitted.id());
        assertThat(aliceAtTheStandby().scheduler().name()).as("the process that answers").isEqualTo("head1:17");
        assertThat(Files.readString(dir.resolve("head1").resolve("audit.log")))
                .contains("\"user\":\"alice\"", "\"via\":\"unix socket at standby head2:4711 for admin root\"");
    }

    @Test
    void whatKoalasCallersSayOfThemselvesReachesTheLeader() throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> heard = new java.util.concurrent.atomic.AtomicReference<>();
        koala.http.JsonHttpServer leaderHere = new koala.http.JsonHttpServer(new java.net.InetSocketAddress(
                java.net.InetAddress.getLoopbackAddress(), 0), 2)
                .route("GET", "/jobs", r -> {
                    heard.set(r.header("X-Koala-Runner-Generation").orElse("none") + " " + r.header("X-Other").orElse("none"));
                    return koala.http.Response.ok(java.util.List.of());
                });
        leaderHere.start();
        try {
            leaderIsHead1(URI.create("http://127.0.0.1:" + leaderHere.port()));
            String token = new Tokens(TokenKey.in(dir.resolve("head1").resolve("token.key")))
                    .issue(new Identity("alice", 1002), Instant.now(), Duration.ofHours(1));

            HttpResponse<String> passed = http.send(HttpRequest.newBuilder(loopback.resolve("/jobs"))
                    .header("Authorization", "Bearer " + token).header("X-Koala-Runner-Generation", "3")
                    .header("X-Other", "kept here").build(), HttpResponse.BodyHandlers.ofString());

            assertThat(passed.statusCode()).isEqualTo(200);
            assertThat(heard.get()).isEqualTo("3 none");
        } finally {
            leaderHere.close();
        }
    }

    @Test
    void theLeadersRefusalComesBackAsItIs() {
        leaderIsHead1(leader.relayedAt());

        assertThatThrownBy(() -> aliceAtTheStandby().cancel(999)).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(404))
                .hasMessageContaining("999");
    }

    @Test
    void withNoLeaderOrOneThatDoesNotAnswerTheCallIsRefusedWithWhoLeads() throws Exception {
        assertThatThrownBy(() -> aliceAtTheStandby().jobs()).isInstanceOf(ApiException.class)
                .hasMessage("this scheduler is a standby; no scheduler leads this grid yet: ask again shortly");

        URI nobody = URI.create("http://127.0.0.1:" + FreePort.any());
        leaderIsHead1(nobody);

        assertThatThrownBy(() -> aliceAtTheStandby().jobs()).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(503))
                .hasMessageStartingWith("this scheduler is a standby; the scheduler leading this grid is head1:17 at "
                        + nobody + " (epoch 4); it does not answer at " + nobody);
        HttpResponse<String> anonymous = get(loopback, "/jobs", null);
        assertThat(anonymous.statusCode()).as("nobody is passed on unidentified").isEqualTo(401);
    }

    @Test
    void aCallAnotherStandbyPassedOnIsNotPassedOnAgain() throws Exception {
        leaderIsHead1(leader.relayedAt());
        Vouchers vouchers = new Vouchers(TokenKey.in(dir.resolve("head1").resolve("token.key")));
        String voucher = vouchers.issue(new Identity("alice", 1002), "unix socket", Vouchers.digest("GET", "/jobs",
                Map.of(), null, new byte[0]), "head3:99", Instant.now());

        HttpResponse<String> chained = http.send(HttpRequest.newBuilder(loopback.resolve("/jobs"))
                .header(Vouchers.HEADER, voucher).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(chained.statusCode()).isEqualTo(503);
        assertThat(chained.body()).contains("this scheduler is a standby; the scheduler leading this grid is head1:17");
    }

    @Test
    void theLeaderServesUsersBeyondLoopbackOnlyACallAStandbyVouchedFor() throws Exception {
        Tokens tokens = new Tokens(TokenKey.in(dir.resolve("head1").resolve("token.key")));
        String aliceToken = tokens.issue(new Identity("alice", 1002), Instant.now(), Duration.ofHours(1));
        assertThat(get(leader.relayedAt(), "/jobs", aliceToken).statusCode()).as("a token alone").isEqualTo(404);

        Vouchers vouchers = new Vouchers(TokenKey.in(dir.resolve("head1").resolve("token.key")));
        String forSites = vouchers.issue(new Identity("alice", 1002), "token", Vouchers.digest("GET", "/sites", Map.of(),
                null, new byte[0]), "head2:4711", Instant.now());
        HttpResponse<String> replayed = http.send(HttpRequest.newBuilder(leader.relayedAt().resolve("/jobs"))
                .header(Vouchers.HEADER, forSites).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(replayed.statusCode()).isEqualTo(401);
        assertThat(replayed.body()).contains("the voucher of standby head2:4711 is for another request");
        HttpResponse<String> sites = http.send(HttpRequest.newBuilder(leader.relayedAt().resolve("/sites"))
                .header(Vouchers.HEADER, forSites).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(sites.statusCode()).isEqualTo(200);
    }

    @Test
    void aTokenIsMadeAtTheStandbyAndTheKeysRotationIsRefusedThere() throws Exception {
        String token = new SchedulerClient(URI.create("unix:" + socket)).createToken(Duration.ofHours(1)).token();

        Tokens atTheLeader = new Tokens(TokenKey.in(dir.resolve("head1").resolve("token.key")));
        assertThat(atTheLeader.verify(token, Instant.parse("2026-11-25T10:00:00Z")).user()).isEqualTo(System.getProperty("user.name"));
        assertThatThrownBy(() -> new SchedulerClient(URI.create("unix:" + socket)).rotateTokenKey())
                .isInstanceOf(ApiException.class).hasMessage("this scheduler is a standby: rotate the token key on the"
                        + " leading scheduler's host, then copy its KOALA_HOME/token.key to every scheduler's host");
    }

    @Test
    void itsMetricsSayItDoesNotLeadAndTheEpochOfTheLeaderItSees() throws Exception {
        assertThat(get(loopback, "/metrics", metricsToken).body()).contains("koala_scheduler_leading 0.0\n",
                "koala_scheduler_epoch 0.0\n");
        assertThat(get(loopback, "/metrics", null).statusCode()).as("the metrics need their token, as the leader's")
                .isEqualTo(401);
        assertThat(get(loopback, "/", null).body()).as("the live page, whose reads go to the leader").contains("<html");

        leaderIsHead1(URI.create("http://198.18.0.1:7070"));

        HttpResponse<String> scrape = get(loopback, "/metrics", metricsToken);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("koala_scheduler_leading 0.0\n", "koala_scheduler_epoch 4.0\n")
                .doesNotContain("koala_jobs", "koala_claims");
    }

    private HttpResponse<String> get(URI base, String path, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
