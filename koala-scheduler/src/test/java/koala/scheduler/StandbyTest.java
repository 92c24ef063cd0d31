package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import koala.common.net.FreePort;
import koala.scheduler.api.MetricsToken;
import koala.scheduler.storage.LeaderLease;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A standby refuses every request with who leads, and shows Prometheus that it does not lead. */
class StandbyTest {
    @TempDir
    Path dir;

    private Standby standby;
    private URI loopback;
    private String metricsToken;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void serve() throws Exception {
        MetricsToken token = MetricsToken.at(dir.resolve("metrics.token"));
        metricsToken = Files.readString(token.file()).strip();
        int port = FreePort.any();
        loopback = URI.create("http://127.0.0.1:" + port);
        standby = Standby.serve(dir.resolve("run").resolve("scheduler.sock"), port, loopback, token.alone(),
                token.alone());
    }

    @AfterEach
    void stop() {
        standby.close();
    }

    @Test
    void everyRequestButAScrapeIsToldWhoLeads() throws Exception {
        assertThat(get("/jobs", metricsToken).body()).contains("no scheduler leads this grid yet");

        standby.leader(Optional.of(new LeaderLease.Holder("head1:17", "http://198.18.0.1:7070", 4, true)));

        HttpResponse<String> jobs = get("/jobs", null);
        assertThat(jobs.statusCode()).isEqualTo(503);
        assertThat(jobs.body()).contains("this scheduler is a standby; the scheduler leading this grid is head1:17"
                + " at http://198.18.0.1:7070 (epoch 4)");
        assertThat(get("/metrics", null).statusCode()).as("the metrics need their token, as the leader's").isEqualTo(401);
        assertThat(get("/", null).body()).as("the live page, whose reads say who leads").contains("<html");
    }

    @Test
    void itsMetricsSayItDoesNotLeadAndTheEpochOfTheLeaderItSees() throws Exception {
        assertThat(get("/metrics", metricsToken).body()).contains("koala_scheduler_leading 0.0\n",
                "koala_scheduler_epoch 0.0\n");

        standby.leader(Optional.of(new LeaderLease.Holder("head1:17", "http://198.18.0.1:7070", 4, true)));

        HttpResponse<String> scrape = get("/metrics", metricsToken);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("koala_scheduler_leading 0.0\n", "koala_scheduler_epoch 4.0\n")
                .doesNotContain("koala_jobs", "koala_claims");
    }

    private HttpResponse<String> get(String path, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(loopback.resolve(path));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
