package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import koala.api.runner.RunnerClient;
import koala.api.runner.TokenSource;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.fluent.client.FluentClient;
import koala.fluent.client.FluentJdf;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.grid.GridConfig;
import koala.http.ApiException;
import koala.runner.RunnerMain;
import koala.testbed.LocalUser;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An instance's token is replaced when a node that is not the instance's says hello with it, and
 * when one of its nodes is lost (its pilot deleted): the replaced token opens nothing any more —
 * neither the runner nor the master —, and the instance carries on with the new one on the
 * testbed: its master grows through the runner's RPC with the token its launcher wrote it, new
 * workers start with it, the old workers keep beating with their nodes' keys.
 */
@SharesScheduler
class TokenRotationIT {
    private static final AppRequest RL = new AppRequest("rl", 3_000L, 20.0, 1_000L, null, null);

    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        scheduler = TestScheduler.shared();
        client = scheduler.client();
        dir = TestScheduler.nodeDir("koala-rotation-it");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    @Test
    void aForeignHelloOrALostNodeReplacesTheTokenAndTheInstanceCarriesOn() throws Exception {
        FluentJdf jdf = new FluentJdf("it-rotation", "ondemand", 2, 4, "(tIdle = 600)(samplePeriod = 1)", 4, "fs1",
                dir, null, List.of());
        try (RunnerMain.Started runner = scheduler.runner(jdf.text(), scheduler.config(), dir, Duration.ofSeconds(10))) {
            long id = runner.instance();
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            FluentClient fluent = FluentClient.of(client, id, runner::token).awaitServing(Duration.ofSeconds(60));
            Awaitility.await("the two initial workers joined").atMost(Duration.ofSeconds(60))
                    .until(() -> fluent.status().workers().size() == 2);
            URI master = URI.create("http://" + client.framework(id).master().address());
            String t0 = runner.token();

            // a node that is not the instance's says hello with its token: refused, and the token replaced
            HttpResponse<String> foreign = post(runner.url().resolve("/nodes/999.2.0/hello"), t0,
                    "{\"site\": \"fs0\", \"host\": \"fs0-n9\", \"port\": 4000, \"pid\": 1}");
            assertThat(foreign.statusCode()).isEqualTo(410);
            String t1 = runner.token();
            assertThat(t1).isNotEqualTo(t0);
            assertThat(foreign.body()).doesNotContain(t1);
            refused(() -> new RunnerClient(runner.url(), t0).status());
            // the master takes the new token once its launcher wrote it (at its next heartbeat), and no longer the old
            Awaitility.await("the master refuses the replaced token").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250)).until(() -> refusedBy(new FluentClient(master, t0)
                            .refusedFor(Duration.ZERO)));
            assertThat(new FluentClient(master, t1).status().instance()).isEqualTo(id);
            assertThat(TokenSource.stateFile(dir.resolve("runner-" + id + ".json")).get())
                    .as("the owner's copy, which koala framework and koala fluent read").isEqualTo(t1);

            // the master grows through the runner with the token its launcher wrote: 3 applications, 2 workers
            JobReply three = fluent.submit(new JobRequest("three", List.of(RL, RL, RL)));
            assertThat(three.apps()).extracting(AppReply::verdict).containsOnly("PLACED");
            assertThat(three.grow()).startsWith("asked to grow 1, granted 1");
            awaitFinished(fluent, three.job());

            // a worker's pilot deleted: its node is lost, its process may have held the token
            String lost = rpc.status().role("worker").get(0).node();
            NodeView node = client.job(id).nodes().stream().filter(n -> n.id().equals(lost)).findFirst().orElseThrow();
            LocalUser.qdel(GridConfig.load(scheduler.config()).site(node.site()), List.of(node.pilot()));
            Awaitility.await("the token replaced after " + lost + " was lost").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250)).until(() -> !runner.token().equals(t1));
            String t2 = runner.token();
            assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("the instance's token was "
                    + "replaced: lost [" + lost + "]"));
            refused(() -> new RunnerClient(runner.url(), t1).status());

            // carries on with t2: the two workers left keep beating with their keys, the master (once it has
            // forgotten the lost worker, which it learns from the runner's status) grows two more
            Awaitility.await("the master forgot " + lost).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> fluent.status().workers().size() == 2);
            JobReply four = fluent.submit(new JobRequest("four", List.of(RL, RL, RL, RL)));
            assertThat(four.apps()).extracting(AppReply::verdict).containsOnly("PLACED");
            assertThat(four.grow()).startsWith("asked to grow 2, granted 2");
            awaitFinished(fluent, four.job());
            assertThat(rpc.status().role("worker")).hasSize(4).allSatisfy(w -> assertThat(w.state())
                    .isEqualTo("RUNNING"));
            assertThat(rpc.status().events()).filteredOn(e -> e.contains(" lost: ")).as("no loss but the deleted pilot's")
                    .singleElement().satisfies(e -> assertThat(e).contains(lost));
            assertThat(runner.token()).as("nothing else replaced it").isEqualTo(t2);
            client.closeAllocation(id);
        }
    }

    private static HttpResponse<String> post(URI uri, String token, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void refused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
    }

    private static boolean refusedBy(FluentClient master) {
        try {
            master.status();
            return false;
        } catch (ApiException e) {
            return e.status() == 401;
        }
    }

    private static void awaitFinished(FluentClient fluent, String job) {
        Awaitility.await("job " + job + " finished").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> fluent.job(job).apps().stream().allMatch(a -> List.of("FINISHED", "FAILED", "REJECTED")
                        .contains(a.state())));
        assertThat(fluent.job(job).apps()).extracting(AppReply::state).containsOnly("FINISHED");
    }
}
