package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.fjm.FrameworkRecord;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import org.junit.jupiter.api.Test;

/**
 * What every store keeps, and how, whatever the database under it: run on H2 ({@link H2StoreTest})
 * and on PostgreSQL ({@link PostgresStoreTest}). A store opened again by the same name is the same
 * database, as a restarted scheduler finds it.
 */
abstract class StoreContract {
    /** The store named {@code name}: made the first time, the same database every time after. */
    abstract Store open(String name);

    @Test
    void thePilotTagIsDrawnOnceAndKeptWithTheDatabase() {
        String tag;
        try (Store store = open("a")) {
            tag = store.pilotTag();
            assertThat(tag).matches("[a-z0-9]{6}");
            assertThat(store.pilotTag()).isEqualTo(tag);
        }
        try (Store reopened = open("a")) {
            assertThat(reopened.pilotTag()).as("after a restart").isEqualTo(tag);
        }
        try (Store other = open("b")) {
            assertThat(other.pilotTag()).as("another scheduler's database").isNotEqualTo(tag);
        }
    }

    @Test
    void aNamedStateIsReplacedAndKeptAcrossAReopen() {
        try (Store store = open("a")) {
            assertThat(store.state("arbitration.book")).isEmpty();
            store.saveState("arbitration.book", "{\"owed\":[]}");
            store.saveState("arbitration.book", "{\"owed\":[1]}");
        }
        try (Store store = open("a")) {
            assertThat(store.state("arbitration.book")).contains("{\"owed\":[1]}");
            assertThat(store.pilotTag()).hasSize(6);
        }
    }

    @Test
    void anAgentsSecretAndHostAreKeptForARestartedSchedulerToReattach() {
        try (Store store = open("a")) {
            store.saveAgent(new Store.AgentRecord("fs0", "http://127.0.0.1:41234", 777, "c2VjcmV0"));
            store.saveAgent(new Store.AgentRecord("fs0", "http://127.0.0.1:41235", 778, "bmV3ZXI", "head1"));
        }
        try (Store reopened = open("a")) {
            assertThat(reopened.agents()).containsExactly(java.util.Map.entry("fs0",
                    new Store.AgentRecord("fs0", "http://127.0.0.1:41235", 778, "bmV3ZXI", "head1")));
            assertThat(reopened.agents().get("fs0").toString()).doesNotContain("bmV3ZXI");
            assertThat(reopened.agents().get("fs0").on("head1")).isTrue();
            assertThat(reopened.agents().get("fs0").on("head2")).as("a scheduler on another host starts its own")
                    .isFalse();
        }
    }

    static JobRecord job(long id, koala.scheduler.state.JobState state) {
        return new JobRecord(id, "j" + id, "j.jdf", "&(count = 1)(executable = /bin/true)", "RIGID", state, "wf",
                "high", 0, 0, null, java.time.Instant.parse("2026-11-25T10:00:00Z"), "alice");
    }

    /**
     * Jobs 1 and 2 end at 10:05 and 11:05, job 3 still runs. Kept in memory for 30 min, at 11:20 a
     * restarted scheduler loads jobs 2 and 3; a retention of one hour at 11:20 forgets job 1 (ended
     * 75 min before), its nodes and the answers older than 10:20 with it.
     */
    @Test
    void endedJobsAreLoadedOnlyWhileRecentAndForgottenAfterTheRetention() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        try (Store store = open("a")) {
            for (long id = 1; id <= 3; id++) {
                store.saveJob(job(id, koala.scheduler.state.JobState.RUNNING), t);
            }
            store.saveNode(new koala.scheduler.claiming.NodeClaim("1.0.0", 1, 0, 0, "fs0",
                    koala.scheduler.claiming.NodeState.EXITED, "41", "fs0-n1", 0, "tok", t, 1));
            store.saveAnswer("alice", "r-1", null, "1", t);
            store.saveAnswer("alice", "r-3", "{\"kind\":\"SUBMIT\"}", "3", t.plusSeconds(3600));
            store.saveJob(job(1, koala.scheduler.state.JobState.FINISHED), t.plusSeconds(300));
            store.saveJob(job(1, koala.scheduler.state.JobState.FINISHED), t.plusSeconds(900)); // saved again: still ended at 10:05
            store.saveJob(job(2, koala.scheduler.state.JobState.FAILED), t.plusSeconds(3900));

            java.time.Instant now = t.plusSeconds(4800);
            assertThat(store.jobsSince(now.minusSeconds(1800))).extracting(JobRecord::id).containsExactly(2L, 3L);
            assertThat(store.job(1)).isPresent();

            assertThat(store.forget(now.minusSeconds(3600))).isEqualTo(1);
            assertThat(store.job(1)).isEmpty();
            assertThat(store.nodes(1)).isEmpty();
            assertThat(store.answer("alice", "r-1")).isEmpty();
            assertThat(store.answer("alice", "r-3")).contains(new Store.Answer("3", "{\"kind\":\"SUBMIT\"}"));
            assertThat(store.jobs()).extracting(JobRecord::id).containsExactly(2L, 3L);
        }
    }

    /**
     * A restart's read of the jobs: job 1 ended at 10:05 (too long ago), job 2 ended at 11:05, job 3 runs with two
     * nodes and a grow. Jobs 2 and 3 come back, in order, each with exactly what was kept of it, as the
     * per-job reads give it; nothing of job 1, nor job 4's parts (no job 4 is stored).
     */
    @Test
    void aRestartReadsBackTheLiveAndRecentJobsWithEverythingKeptOfThem() {
        Instant t = Instant.parse("2026-11-25T10:00:00Z");
        try (Store store = open("reload")) {
            for (long id = 1; id <= 3; id++) {
                store.saveJob(job(id, koala.scheduler.state.JobState.RUNNING), t);
                store.recordTransition(id, new koala.api.scheduler.TransitionView(t, "", "QUEUED", "SUBMITTED", null));
                store.saveNode(new NodeClaim(id + ".0.0", id, 0, 0, "fs0", NodeState.RUNNING, "4" + id, "fs0-n1", null,
                        "tok", t, 1));
            }
            store.saveNode(new NodeClaim("3.1.0", 3, 1, 0, "fs1", NodeState.SUBMITTED, null, null, null, "tok", t, 2,
                    null, List.of(0)));
            store.saveSpan(new koala.scheduler.claiming.NodeSpan("3.0.0", 1, 3, 0, "fs0", t, t.plusSeconds(2), null,
                    null, null));
            store.appendComponent(3, 0, "{\"index\":0}");
            store.appendComponent(3, 1, "{\"index\":1}");
            store.saveRoles(3, "{\"1\":\"worker\"}");
            store.recordTransition(3, new koala.api.scheduler.TransitionView(t, "QUEUED", "CLAIMING", "PLACED", "fs0"));
            store.appendComponent(4, 0, "{\"index\":0}");
            store.saveJob(job(1, koala.scheduler.state.JobState.FINISHED), t.plusSeconds(300));
            store.saveJob(job(2, koala.scheduler.state.JobState.FAILED), t.plusSeconds(3900));
        }
        try (Store store = open("reload")) {
            List<StoredJob> back = store.reload(t.plusSeconds(3000));

            assertThat(back).extracting(s -> s.record().id()).containsExactly(2L, 3L);
            for (StoredJob s : back) {
                long id = s.record().id();
                assertThat(s).isEqualTo(new StoredJob(store.job(id).orElseThrow(), store.components(id), store.roles(id),
                        store.nodes(id), store.spans(id), store.history(id)));
            }
            StoredJob three = back.get(1);
            assertThat(three.nodes()).extracting(NodeClaim::id).containsExactly("3.0.0", "3.1.0");
            assertThat(three.components()).containsExactly("{\"index\":0}", "{\"index\":1}");
            assertThat(three.roles()).contains("{\"1\":\"worker\"}");
            assertThat(three.spans()).hasSize(1);
            assertThat(three.history()).extracting(koala.api.scheduler.TransitionView::event)
                    .containsExactly("SUBMITTED", "PLACED");
            assertThat(back.get(0).components()).isEmpty();
            assertThat(back.get(0).roles()).isEmpty();
        }
    }

    /**
     * Jobs 1 and 2 ended at 10:05 with usage records; the accounting file has job 1's, not yet job 2's.
     * The retention forgets both jobs with their spans and tallies, and job 1's record; job 2's stays
     * until the file has it. Spans and a tally are read back as saved, across a reopen.
     */
    @Test
    void usageRecordsOutliveTheRetentionUntilTheAccountingFileHasThem() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        koala.scheduler.claiming.NodeSpan span = new koala.scheduler.claiming.NodeSpan("1.0.0", 1, 1, 0, "fs0", t,
                t.plusSeconds(5), t.plusSeconds(300), "EXITED", 212.5);
        try (Store store = open("u")) {
            for (long id = 1; id <= 2; id++) {
                store.saveJob(job(id, koala.scheduler.state.JobState.FINISHED), t.plusSeconds(300));
                store.saveUsageRecord(id, null);
                store.saveUsageRecord(id, "{\"id\":" + id + "}");
            }
            store.saveSpan(span);
            store.saveWorkerTally(1, new koala.scheduler.accounting.WorkerTally(60, null, 90));
            store.usageRecordWritten(1, t.plusSeconds(301));
        }
        try (Store store = open("u")) {
            assertThat(store.spans(1)).containsExactly(span);
            assertThat(store.workerTally(1)).contains(new koala.scheduler.accounting.WorkerTally(60, null, 90));
            assertThat(store.unwrittenUsageRecords()).isEqualTo(java.util.Map.of(2L, "{\"id\":2}"));

            assertThat(store.forget(t.plusSeconds(3600))).isEqualTo(2);
            assertThat(store.spans(1)).isEmpty();
            assertThat(store.workerTally(1)).isEmpty();
            assertThat(store.unwrittenUsageRecords()).containsOnlyKeys(2L);
        }
    }

    @Test
    void anAllocationsGrowsAreAppendedInOrderAndReadBackAfterARestart() {
        try (Store store = open("a")) {
            store.appendComponent(7, 0, "{\"index\":0}");
            store.appendComponent(7, 1, "{\"index\":1}");
            store.appendComponent(8, 0, "{\"index\":0,\"other\":true}");
        }
        try (Store reopened = open("a")) {
            assertThat(reopened.components(7)).containsExactly("{\"index\":0}", "{\"index\":1}");
        }
    }

    /**
     * Transitions are numbered by the store, in the order they were recorded, and go on from the last
     * one after a restart: a job's history reads back in order across it.
     */
    @Test
    void aJobsHistoryKeepsItsOrderAcrossARestart() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        try (Store store = open("h")) {
            store.recordTransition(1, new koala.api.scheduler.TransitionView(t, "", "QUEUED", "SUBMITTED", null));
            store.recordTransition(2, new koala.api.scheduler.TransitionView(t, "", "QUEUED", "SUBMITTED", null));
            store.recordTransition(1, new koala.api.scheduler.TransitionView(t, "QUEUED", "CLAIMING", "PLACED", "fs0"));
        }
        try (Store store = open("h")) {
            store.recordTransition(1, new koala.api.scheduler.TransitionView(t, "CLAIMING", "RUNNING", "ALL_CLAIMED", null));
            assertThat(store.history(1)).extracting(koala.api.scheduler.TransitionView::event)
                    .containsExactly("SUBMITTED", "PLACED", "ALL_CLAIMED");
            assertThat(store.history(2)).hasSize(1);
        }
    }

    /** Later saves change a job's life (state, tries, reason), never what it is (its JDF, name, owner). */
    @Test
    void aJobSavedAgainKeepsWhatItIsAndChangesItsState() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        try (Store store = open("j")) {
            JobRecord queued = job(1, koala.scheduler.state.JobState.QUEUED);
            store.saveJob(queued, t);
            store.saveJob(queued.triedOnce("no idle node").withState(koala.scheduler.state.JobState.CLAIMING), t);
            assertThat(store.job(1)).contains(queued.triedOnce("no idle node")
                    .withState(koala.scheduler.state.JobState.CLAIMING));
            assertThat(store.jobsSince(t.plusSeconds(3600))).as("not ended").hasSize(1);
        }
    }

    /** Job ids go on from the last one drawn after a restart: none is given twice. */
    @Test
    void jobIdsAreNeverGivenTwiceAcrossARestart() {
        long first;
        long second;
        try (Store store = open("ids")) {
            first = store.nextJobId();
            second = store.nextJobId();
        }
        try (Store store = open("ids")) {
            assertThat(second).isGreaterThan(first);
            assertThat(store.nextJobId()).isGreaterThan(second);
        }
    }

    /**
     * alice's records of jobs add up: 2 records of 3,600 and 1,800 node-seconds (8 and 4 cores, 32 and
     * 16 GB, 1 GPU for the first) are 2 records of 5,400 node-seconds, 36,000 core-seconds, 144,000
     * GB-seconds and 3,600 GPU-seconds; bob's framework records are apart.
     */
    @Test
    void usageAddsUpPerOwnerAndKind() {
        UsageTotals.Key aliceJobs = new UsageTotals.Key("alice", "job");
        try (Store store = open("usage")) {
            store.addUsage(aliceJobs, new UsageTotals(1, 3_600, 28_800, 115_200, 3_600));
            store.addUsage(new UsageTotals.Key("bob", "framework"), new UsageTotals(1, 60, 60, 120, 0));
            store.addUsage(aliceJobs, new UsageTotals(1, 1_800, 7_200, 28_800, 0));
        }
        try (Store store = open("usage")) {
            assertThat(store.usageTotals()).containsExactly(
                    Map.entry(aliceJobs, new UsageTotals(2, 5_400, 36_000, 144_000, 3_600)),
                    Map.entry(new UsageTotals.Key("bob", "framework"), new UsageTotals(1, 60, 60, 120, 0)));
        }
    }

    /** A node saved again replaces what it was; its launcher's command and its GPU devices read back as saved. */
    @Test
    void aNodeSavedAgainIsReplacedWithItsDevicesAndDaemon() {
        Instant t = Instant.parse("2026-11-25T10:00:00Z");
        NodeClaim claiming = new NodeClaim("4.0.1", 4, 0, 1, "fs0", NodeState.SUBMITTED, null, null, null, "tok", t, 1,
                null, null);
        NodeClaim running = new NodeClaim("4.0.1", 4, 0, 1, "fs0", NodeState.RUNNING, "77", "fs0-n14", null, "tok", t, 1,
                List.of("dask", "worker"), List.of(0, 1));
        try (Store store = open("nodes")) {
            store.saveNode(claiming);
            store.saveNode(running);
            store.saveNode(new NodeClaim("4.0.0", 4, 0, 0, "fs0", NodeState.RUNNING, "76", "fs0-n1", null, "tok", t, 1,
                    null, List.of()));
        }
        try (Store store = open("nodes")) {
            assertThat(store.nodes(4)).extracting(NodeClaim::id).containsExactly("4.0.0", "4.0.1");
            assertThat(store.nodes(4).get(1)).isEqualTo(running);
            assertThat(store.nodes(4).get(0).gpus()).isEmpty();
        }
    }

    /** A framework instance is kept whole, and saved again as its runner's state changes. */
    @Test
    void aFrameworkIsKeptAndSavedAgain() {
        Instant t = Instant.parse("2026-11-25T10:00:00Z");
        FrameworkRecord dask = new FrameworkRecord(9, "dask", "/home/alice/dask.jdf", "+(&(count = 1))", "on-demand",
                Map.of("tIdle", "60"), "http://198.18.0.1:40123", "9.0.0", "tls://198.18.1.11:8786", t, null);
        try (Store store = open("frameworks")) {
            store.saveFramework(dask);
            store.saveFramework(new FrameworkRecord(9, "dask", "/home/alice/dask.jdf", "+(&(count = 1))", "on-demand",
                    Map.of("tIdle", "60"), "http://198.18.0.1:40123", "9.0.0", "tls://198.18.1.11:8786", t, "{\"grows\":2}"));
        }
        try (Store store = open("frameworks")) {
            assertThat(store.frameworks()).extracting(FrameworkRecord::runnerState).containsExactly("{\"grows\":2}");
            assertThat(store.frameworks().get(0).parameters()).isEqualTo(Map.of("tIdle", "60"));
        }
    }

    /** The answer to a request is kept under its owner and id, and a second save of it replaces the first. */
    @Test
    void anAnswerIsKeptPerOwnerAndRequest() {
        Instant t = Instant.parse("2026-11-25T10:00:00Z");
        try (Store store = open("answers")) {
            store.saveAnswer("alice", "r-1", "{\"kind\":\"SUBMIT\"}", "7", t);
            store.saveAnswer("bob", "r-1", null, "8", t);
            store.saveAnswer("alice", "r-1", "{\"kind\":\"SUBMIT\"}", "9", t);
        }
        try (Store store = open("answers")) {
            assertThat(store.answer("alice", "r-1")).contains(new Store.Answer("9", "{\"kind\":\"SUBMIT\"}"));
            assertThat(store.answer("bob", "r-1")).contains(new Store.Answer("8", null));
            assertThat(store.answer("carol", "r-1")).isEmpty();
        }
    }

    /** Inside a unit, what it wrote is read back before the unit commits; after it threw, nothing of it is there. */
    @Test
    void aUnitReadsItsOwnWritesAndLeavesNothingWhenItThrows() {
        Instant t = Instant.parse("2026-11-25T10:00:00Z");
        try (Store store = open("own-writes")) {
            store.inTransaction(() -> {
                store.saveJob(job(11, koala.scheduler.state.JobState.QUEUED), t);
                store.saveAnswer("alice", "r-11", null, "11", t);
                assertThat(store.job(11)).isPresent();
                assertThat(store.answer("alice", "r-11")).isPresent();
            });
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.inTransaction(() -> {
                store.saveJob(job(12, koala.scheduler.state.JobState.QUEUED), t);
                throw new IllegalStateException("the policy broke");
            })).hasMessage("the policy broke");
            assertThat(store.jobs()).extracting(JobRecord::id).containsExactly(11L);
        }
    }

    /**
     * A request named for the first time is known new without a statement (the names answered are in memory);
     * one answered is looked up, in the same unit before it commits and after a restart, and one whose unit was
     * undone is not found.
     */
    @Test
    void aNewRequestNameIsToldNewWithoutAStatementAndAnAnsweredOneIsFound() {
        Instant t = Instant.parse("2026-11-25T10:00:00Z");
        try (Store store = open("answer-names")) {
            SqlStore sql = (SqlStore) store;
            SqlStore.Stats before = sql.stats();
            assertThat(store.answer("alice", "submit:r-1")).isEmpty();
            assertThat(sql.stats().minus(before).statements()).as("statements for a new name").isZero();

            store.inTransaction(() -> {
                store.saveAnswer("alice", "submit:r-1", "{\"kind\":\"SUBMIT\"}", "1", t);
                assertThat(store.answer("alice", "submit:r-1")).as("in the unit that saved it")
                        .contains(new Store.Answer("1", "{\"kind\":\"SUBMIT\"}"));
            });
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.inTransaction(() -> {
                store.saveAnswer("alice", "submit:r-2", null, "2", t);
                throw new IllegalStateException("the policy broke");
            })).hasMessage("the policy broke");
            assertThat(store.answer("alice", "submit:r-2")).as("its unit was undone").isEmpty();
        }
        try (Store store = open("answer-names")) {
            assertThat(store.answer("alice", "submit:r-1")).as("after a restart").contains(
                    new Store.Answer("1", "{\"kind\":\"SUBMIT\"}"));
            assertThat(store.answer("alice", "submit:r-2")).isEmpty();
            assertThat(store.answer("bob", "submit:r-1")).isEmpty();
        }
    }
}
