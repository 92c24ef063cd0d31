package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.TransitionView;
import koala.fjm.FrameworkRecord;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.accounting.WorkerTally;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.state.JobState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A head node's H2 file copied into PostgreSQL ({@code koala store copy}): job 41 running on two
 * nodes with its history, spans, answer and usage, framework 42 with its grows, an agent, a named
 * value and the pilot tag, all read back the same from the copy; job ids go on after 42.
 */
class StoreCopyTest {
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void everythingAHeadNodesFileHeldIsReadTheSameFromPostgresql() {
        try (SqlStore h2 = H2Store.open(dir.resolve("koala")); SqlStore pg = postgres()) {
            fill(h2);
            List<String> heard = new ArrayList<>();

            Map<String, Integer> rows = StoreCopy.copy(h2, pg, heard::add);

            assertThat(rows).containsEntry("jobs", 2).containsEntry("nodes", 2).containsEntry("transitions", 3)
                    .containsEntry("meta", 2).containsEntry("frameworks", 1).containsEntry("components", 2);
            assertThat(heard).hasSize(StoreCopy.TABLES.size()).contains("jobs: 2 rows");
            assertSame(h2, pg);
            assertThat(pg.nextJobId()).isGreaterThan(42);
        }
    }

    @Test
    void aTargetThatHoldsJobsIsRefused() {
        try (SqlStore h2 = H2Store.open(dir.resolve("a")); SqlStore other = H2Store.open(dir.resolve("b"))) {
            fill(h2);
            other.saveJob(job(7, JobState.QUEUED), T);

            assertThatThrownBy(() -> StoreCopy.copy(h2, other, line -> { }))
                    .isInstanceOf(koala.common.failure.Conflict.class).hasMessageContaining("holds 1 jobs already");
            assertThat(other.jobs()).hasSize(1);
        }
    }

    private static SqlStore postgres() {
        return PostgresStore.open(TestPostgres.newDatabase(), "koala", TestPostgres.PASSWORD);
    }

    private static JobRecord job(long id, JobState state) {
        return new JobRecord(id, "j" + id, "j.jdf", "+(&(count = 2)(executable = \"/bin/sleep\"))", "NON_FIXED", state,
                "worst-fit", "high", 1, 0, null, T, "alice");
    }

    private static void fill(Store s) {
        for (int i = 0; i < 42; i++) {
            s.nextJobId();
        }
        s.saveJob(job(41, JobState.RUNNING), T);
        s.saveJob(new JobRecord(42, "dask", "dask.jdf", "{}", "ALLOCATION", JobState.RUNNING, "fcm", "high", 0, 0, null,
                T, "bob"), T);
        s.saveNode(new NodeClaim("41.0.0", 41, 0, 0, "fs0", NodeState.RUNNING, "1001", "fs0-n1", null, "t0", T, 1,
                List.of("sleep"), List.of(0)));
        s.saveNode(new NodeClaim("41.0.1", 41, 0, 1, "fs1", NodeState.RUNNING, "2001", "fs1-n1", null, "t1", T, 1));
        s.saveSpan(new NodeSpan("41.0.0", 1, 41, 0, "fs0", T, T.plusSeconds(2), null, null, null));
        s.recordTransition(41, new TransitionView(T, "", "QUEUED", "SUBMITTED", "from j.jdf by alice"));
        s.recordTransition(41, new TransitionView(T, "QUEUED", "CLAIMING", "PLACED", "fs0, fs1"));
        s.recordTransition(41, new TransitionView(T.plusSeconds(2), "CLAIMING", "RUNNING", "ALL_CLAIMED", null));
        s.saveAnswer("alice", "r-41", "{\"kind\":\"SUBMIT\"}", "41", T);
        s.saveUsageRecord(40, "{\"id\":40}");
        s.saveWorkerTally(42, new WorkerTally(30, 12.5, 60));
        s.addUsage(new UsageTotals.Key("alice", "job"), new UsageTotals(3, 300, 600, 1200, 0));
        s.saveFramework(new FrameworkRecord(42, "dask", "/home/bob/dask.jdf", "{}", "on-demand", Map.of("tIdle", "60"),
                "http://198.18.0.1:40123", "42.0.0", "tls://198.18.1.11:8786", T, "{\"grows\":1}"));
        s.appendComponent(42, 0, "{\"index\":0}");
        s.appendComponent(42, 1, "{\"index\":1}");
        s.saveRoles(42, "[]");
        s.saveAgent(new Store.AgentRecord("fs0", "http://127.0.0.1:41234", 777, "c2VjcmV0"));
        s.saveState("arbitration.book", "{\"owed\":[]}");
        s.pilotTag();
    }

    private static void assertSame(Store a, Store b) {
        assertThat(b.pilotTag()).isEqualTo(a.pilotTag());
        assertThat(b.jobs()).isEqualTo(a.jobs());
        for (long id : List.of(41L, 42L)) {
            assertThat(b.nodes(id)).isEqualTo(a.nodes(id));
            assertThat(b.spans(id)).isEqualTo(a.spans(id));
            assertThat(b.history(id)).isEqualTo(a.history(id));
            assertThat(b.components(id)).isEqualTo(a.components(id));
            assertThat(b.roles(id)).isEqualTo(a.roles(id));
            assertThat(b.workerTally(id)).isEqualTo(a.workerTally(id));
        }
        assertThat(b.answer("alice", "r-41")).isEqualTo(a.answer("alice", "r-41")).isPresent();
        assertThat(b.unwrittenUsageRecords()).isEqualTo(a.unwrittenUsageRecords()).hasSize(1);
        assertThat(b.usageTotals()).isEqualTo(a.usageTotals()).hasSize(1);
        assertThat(b.frameworks()).isEqualTo(a.frameworks()).hasSize(1);
        assertThat(b.agents()).isEqualTo(a.agents()).hasSize(1);
        assertThat(b.state("arbitration.book")).isEqualTo(a.state("arbitration.book")).isPresent();
    }
}
