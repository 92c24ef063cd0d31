package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import koala.common.api.SchedulerClient;
import koala.common.api.UsageRecord;
import koala.common.auth.TokenKey;
import koala.common.auth.Tokens;
import koala.common.http.ApiException;
import koala.common.http.Endpoint;
import koala.common.http.JsonHttpServer;
import koala.common.json.Json;
import koala.scheduler.accounting.AccountingFile;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.SchedulerApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /accounting} over the scheduler's Unix socket: a user reads their own usage records, an
 * admin anyone's; the filters and their errors name the parameter. The caller here is root, an admin,
 * who acts for alice to be her.
 */
class AccountingOverHttpTest {
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    @TempDir
    Path dir;

    private TestGrid grid;
    private SchedulerLoop loop;
    private JsonHttpServer server;
    private SchedulerClient admin;

    @BeforeEach
    void serve() throws Exception {
        grid = new TestGrid(Map.of("fs0", 3), Duration.ofSeconds(60));
        loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor());
        Path socket = dir.resolve("scheduler.sock");
        server = new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-")), 4);
        TokenKey key = TokenKey.in(dir.resolve("token.key"));
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                + "alice:x:1002:1002::/home/alice:/bin/sh\nbob:x:1003:1003::/home/bob:/bin/sh\n");
        Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock);
        AccountingFile file = new AccountingFile(dir.resolve("accounting.jsonl"));
        file.append(List.of(line(1, "alice", T0), line(2, "bob", T0.plusSeconds(3600)),
                line(3, "alice", T0.plusSeconds(7200))));
        SchedulerApi.register(server, SchedulerDaemon.operations(grid.scheduler, loop, key, file), callers,
                AuditLog.in(dir.resolve("audit.log"), grid.clock));
        server.start();
        admin = new SchedulerClient(URI.create("unix:" + socket));
    }

    @AfterEach
    void stop() {
        server.close();
        loop.close();
        grid.close();
    }

    private static String line(long id, String owner, Instant ended) {
        return Json.write(new UsageRecord(id, UsageRecord.JOB, "job-" + id, owner, "worst-fit", "FINISHED", 0, "done",
                ended.minusSeconds(60), ended.minusSeconds(50), ended, 50.0, List.of("fs0"), 1, 1, 50.0, 50.0, null,
                1.0, null, null, null, null, null, 0, 0, 0, 0, 0));
    }

    @Test
    void aUserReadsTheirOwnRecordsAndAnAdminAnyones() {
        assertThat(admin.accounting(null, null, null, 100).records()).extracting(UsageRecord::id)
                .containsExactly(1L, 2L, 3L);
        assertThat(admin.accounting("bob", null, null, 100).records()).extracting(UsageRecord::id).containsExactly(2L);
        SchedulerClient alice = admin.actingFor("alice");
        assertThat(alice.accounting(null, null, null, 100).records()).extracting(UsageRecord::id)
                .containsExactly(1L, 3L);
        assertThat(alice.accounting(null, T0.plusSeconds(60), null, 100).records()).extracting(UsageRecord::id)
                .containsExactly(3L);
        assertThatThrownBy(() -> alice.accounting("bob", null, null, 100)).isInstanceOfSatisfying(ApiException.class,
                e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.getMessage()).isEqualTo("alice may not read bob's usage records: a user reads their "
                            + "own, an admin anyone's");
                });
    }

    @Test
    void theNewestWithinTheLimitAndHowManyWereLeftOut() {
        var view = admin.accounting(null, null, null, 2);
        assertThat(view.records()).extracting(UsageRecord::id).containsExactly(2L, 3L);
        assertThat(view.leftOut()).isEqualTo(1);
    }

    @Test
    void badParametersAreRefusedNamingThem() {
        JsonHttpClientCalls calls = new JsonHttpClientCalls(dir.resolve("scheduler.sock"));
        assertThat(calls.status("/accounting?since=yesterday")).isEqualTo("400 since: 'yesterday' is not an instant "
                + "such as 2026-11-25T08:00:00Z");
        assertThat(calls.status("/accounting?instance=x")).isEqualTo("400 instance: 'x' is not a number");
        assertThat(calls.status("/accounting?limit=0")).isEqualTo("400 limit: 0 is out of range: 1 to 20000");
    }

    /** Raw calls, for answers the typed client would not build. */
    private record JsonHttpClientCalls(Path socket) {
        String status(String path) {
            try {
                koala.common.http.JsonHttpClient.unixSocket(socket, Duration.ofSeconds(10)).get(path, Map.class);
                return "200";
            } catch (ApiException e) {
                return e.status() + " " + e.getMessage();
            }
        }
    }
}
