package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.UsageRecord;
import koala.common.json.Json;
import koala.http.ApiException;
import koala.scheduler.accounting.AccountingFile;
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

    private ServedScheduler scheduler;
    private SchedulerClient admin;

    @BeforeEach
    void serve() throws Exception {
        AccountingFile file = new AccountingFile(dir.resolve("accounting.jsonl"));
        file.append(List.of(line(1, "alice", T0), line(2, "bob", T0.plusSeconds(3600)),
                line(3, "alice", T0.plusSeconds(7200))));
        scheduler = ServedScheduler.serve(dir, (s, loop, key) -> new LoopOperations(s, loop, key, file, null));
        admin = scheduler.asRoot();
    }

    @AfterEach
    void stop() {
        scheduler.close();
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
        JsonHttpClientCalls calls = new JsonHttpClientCalls(scheduler.socket());
        assertThat(calls.status("/accounting?since=yesterday")).isEqualTo("400 since: 'yesterday' is not an instant "
                + "such as 2026-11-25T08:00:00Z");
        assertThat(calls.status("/accounting?instance=x")).isEqualTo("400 instance: 'x' is not a number");
        assertThat(calls.status("/accounting?limit=0")).isEqualTo("400 limit: 0 is out of range: 1 to 20000");
    }

    /** Raw calls, for answers the typed client would not build. */
    private record JsonHttpClientCalls(Path socket) {
        String status(String path) {
            try {
                koala.http.JsonHttpClient.unixSocket(socket, Duration.ofSeconds(10)).get(path, Map.class);
                return "200";
            } catch (ApiException e) {
                return e.status() + " " + e.getMessage();
            }
        }
    }
}
