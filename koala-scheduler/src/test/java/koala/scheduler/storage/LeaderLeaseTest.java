package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import koala.scheduler.state.JobState;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two schedulers, a and b, on one PostgreSQL store with a lease of 600 ms: who leads, a take-over once
 * the leader stops renewing, and the fencing that keeps a leader that was paused from writing a single
 * row after its lease passed.
 */
class LeaderLeaseTest {
    private static final Duration TERM = Duration.ofMillis(600);
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    private SqlStore storeA;
    private SqlStore storeB;
    private LeaderLease a;
    private LeaderLease b;

    @BeforeEach
    void open() {
        String url = TestPostgres.newDatabase();
        storeA = PostgresStore.open(url, "koala", TestPostgres.PASSWORD);
        storeB = PostgresStore.open(url, "koala", TestPostgres.PASSWORD);
        a = storeA.lease(TERM);
        b = storeB.lease(TERM);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        storeA.close();
        storeB.close();
    }

    private static JobRecord job(long id) {
        return new JobRecord(id, "j" + id, "j.jdf", "&(count = 1)", "NON_FIXED", JobState.QUEUED, "worst-fit", "high",
                0, 0, null, T, "alice");
    }

    /** The epoch b takes over with, once a's lease of epoch 1 has passed. */
    private long takeOver() {
        return Awaitility.await("b takes the lease over").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> b.acquire("b", "http://198.18.0.2:7400"), OptionalLong::isPresent).getAsLong();
    }

    @Test
    void oneLeadsWhileItRenewsAndTheOtherWaits() {
        assertThat(a.holder()).as("nobody led yet").isEmpty();

        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
        assertThat(b.acquire("b", "http://198.18.0.2:7400")).isEmpty();
        assertThat(a.renew(1)).isTrue();
        assertThat(b.holder()).contains(new LeaderLease.Holder("a", "http://198.18.0.1:7400", 1, true));
        assertThat(a.renew(2)).as("an epoch nobody holds").isFalse();
    }

    @Test
    void aLeaderThatStopsRenewingIsTakenOverAndItsWritesAreRefused() {
        AtomicInteger lost = new AtomicInteger();
        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
        storeA.fence(1, TERM, why -> lost.incrementAndGet());
        storeA.saveJob(job(1), T);

        assertThat(takeOver()).isEqualTo(2);

        assertThat(a.renew(1)).isFalse();
        assertThatThrownBy(() -> storeA.saveJob(job(2), T)).isInstanceOf(LeadershipLost.class)
                .hasMessageContaining("another scheduler leads now (epoch 2, this one's was 1)");
        assertThat(lost).hasValue(1);
        assertThat(storeB.jobs()).extracting(JobRecord::id).containsExactly(1L);
        assertThat(storeA.job(1)).as("reads go on: only writes are fenced").isPresent();
    }

    @Test
    void aLeaderWhoseLeasePassedWritesNothingEvenBeforeAnotherTakesOver() throws Exception {
        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
        storeA.fence(1, TERM, why -> { });

        Awaitility.await("a's lease passes").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> !b.holder().orElseThrow().live());

        assertThatThrownBy(() -> storeA.saveJob(job(3), T)).isInstanceOf(LeadershipLost.class)
                .hasMessageContaining("lease of epoch 1 has passed");
        assertThat(storeB.jobs()).isEmpty();
    }

    /**
     * a is paused in the middle of a unit (as by SIGSTOP) after it wrote job 4, for longer than its lease:
     * b takes over without waiting for it, and when a wakes up its unit is refused and job 4 was never written.
     */
    @Test
    void aLeaderPausedInTheMiddleOfAUnitDoesNotHoldTheTakeOverUpAndWritesNothing() throws Exception {
        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
        storeA.fence(1, TERM, why -> { });
        CountDownLatch wrote = new CountDownLatch(1);
        CountDownLatch wake = new CountDownLatch(1);
        CompletableFuture<Void> paused = CompletableFuture.runAsync(() -> storeA.inTransaction(() -> {
            storeA.saveJob(job(4), T);
            wrote.countDown();
            await(wake);
        }));
        assertThat(wrote.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(takeOver()).isEqualTo(2);
        storeB.saveJob(job(5), T);
        wake.countDown();

        assertThatThrownBy(() -> paused.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(StoreException.class);
        assertThat(storeB.jobs()).extracting(JobRecord::id).containsExactly(5L);
    }

    /** b opened the store as a standby before a recorded job 6's history: leading, it numbers its transitions on from a's. */
    @Test
    void aStandbyThatTakesOverCountsOnFromTheLastLeadersRecords() {
        koala.api.scheduler.TransitionView submitted = new koala.api.scheduler.TransitionView(T, "", "QUEUED",
                "SUBMITTED", null);
        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
        storeA.fence(1, TERM, why -> { });
        storeA.recordTransition(6, submitted);
        storeA.recordTransition(6, new koala.api.scheduler.TransitionView(T, "QUEUED", "CLAIMING", "PLACED", "fs0"));
        a.resign(1);

        storeB.fence(b.acquire("b", "http://198.18.0.2:7400").getAsLong(), TERM, why -> { });
        storeB.recordTransition(6, new koala.api.scheduler.TransitionView(T, "CLAIMING", "RUNNING", "ALL_CLAIMED", null));

        assertThat(storeB.history(6)).extracting(koala.api.scheduler.TransitionView::event)
                .containsExactly("SUBMITTED", "PLACED", "ALL_CLAIMED");
    }

    /**
     * b opened the store as a standby, its names of answered requests read while there were none; a answered
     * request r-1 as leader. Leading, b finds that answer (it does not carry r-1 out again), and a, taken over,
     * may not know of b's answer to r-2 but cannot commit what it does for it.
     */
    @Test
    void aStandbyThatTakesOverFindsTheAnswersTheLastLeaderGave() {
        assertThat(storeB.answer("alice", "submit:r-1")).as("b as a standby, before a answered").isEmpty();
        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
        storeA.fence(1, TERM, why -> { });
        storeA.inTransaction(() -> {
            storeA.saveJob(job(10), T);
            storeA.saveAnswer("alice", "submit:r-1", "{\"kind\":\"SUBMIT\"}", "10", T);
        });
        a.resign(1);

        storeB.fence(b.acquire("b", "http://198.18.0.2:7400").getAsLong(), TERM, why -> { });
        assertThat(storeB.answer("alice", "submit:r-1")).as("b, leading").contains(
                new Store.Answer("10", "{\"kind\":\"SUBMIT\"}"));
        storeB.inTransaction(() -> {
            storeB.saveJob(job(11), T);
            storeB.saveAnswer("alice", "submit:r-2", "{\"kind\":\"SUBMIT\"}", "11", T);
        });

        assertThat(storeA.answer("alice", "submit:r-2")).as("a's names are a's, from before b led").isEmpty();
        assertThatThrownBy(() -> storeA.inTransaction(() -> {
            storeA.saveJob(job(12), T);
            storeA.saveAnswer("alice", "submit:r-2", "{\"kind\":\"SUBMIT\"}", "12", T);
        })).isInstanceOf(LeadershipLost.class);
        assertThat(storeB.answer("alice", "submit:r-2")).contains(new Store.Answer("11", "{\"kind\":\"SUBMIT\"}"));
        assertThat(storeB.jobs()).extracting(JobRecord::id).containsExactly(10L, 11L);
    }

    /**
     * The database restarts while a's unit writing job 7 is open: the unit fails, a hears that its
     * connection was lost (a leader steps down then), and each store's next unit connects again.
     */
    @Test
    void aUnitWhoseConnectionIsLostFailsAndTheLeaderHearsIt() throws Exception {
        java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
        storeA.fence(1, Duration.ofSeconds(30), heard::add);
        CountDownLatch wrote = new CountDownLatch(1);
        CountDownLatch restarted = new CountDownLatch(1);
        CompletableFuture<Void> unit = CompletableFuture.runAsync(() -> storeA.inTransaction(() -> {
            storeA.saveJob(job(7), T);
            wrote.countDown();
            await(restarted);
            storeA.saveJob(job(8), T);
        }));
        assertThat(wrote.await(10, TimeUnit.SECONDS)).isTrue();

        TestPostgres.server().stop();
        TestPostgres.server().start();
        restarted.countDown();

        assertThatThrownBy(() -> unit.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(StoreException.class);
        assertThat(heard).singleElement().asString().startsWith("the store's connection was lost in the middle of a unit");
        storeB.saveJob(job(9), T); // b's connection ended with the restart too: its next unit connects again
        assertThat(storeA.jobs()).extracting(JobRecord::id).containsExactly(9L);
    }

    @Test
    void aLeaderThatResignsIsTakenOverAtOnce() {
        assertThat(a.acquire("a", "http://198.18.0.1:7400")).hasValue(1);

        a.resign(1);

        assertThat(b.acquire("b", "http://198.18.0.2:7400")).hasValue(2);
        assertThat(a.holder()).contains(new LeaderLease.Holder("b", "http://198.18.0.2:7400", 2, true));
    }

    /**
     * a and b with a lease of a minute: a's process dies (its connection to the store closes with it, as the kernel
     * closes a killed process's sockets), and b takes over at once rather than a minute later; a's epoch, renewed
     * again, is refused.
     */
    @Test
    void aLeaderWhoseSessionEndedIsTakenOverBeforeItsLeasePasses() {
        Duration minute = Duration.ofMinutes(1);
        try (LeaderLease a1 = storeA.lease(minute); LeaderLease b1 = storeB.lease(minute)) {
            assertThat(a1.acquire("a", "http://198.18.0.1:7400")).hasValue(1);
            assertThat(b1.acquire("b", "http://198.18.0.2:7400")).as("a's session holds").isEmpty();

            a1.close();

            assertThat(Awaitility.await("b takes over once a's session ended").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50)).until(() -> b1.acquire("b", "http://198.18.0.2:7400"),
                            OptionalLong::isPresent)).hasValue(2);
            assertThat(b1.howTaken()).isEqualTo("the session of the leader of epoch 1 with the store ended (its process"
                    + " died or closed its connection)");
            assertThat(a1.renew(1)).as("a's epoch, on a new session").isFalse();
            assertThat(a.acquire("c", "http://198.18.0.3:7400")).as("b's session holds").isEmpty();
        }
    }

    /**
     * PostgreSQL restarted lets every lock go, the leader's too, with no leader dying: b does not take over (a took
     * its lock before the server started), a's next renewal takes its lock back, and only then does a's end (its
     * connection closed) let b take over at once.
     */
    @Test
    void aServerRestartedIsNoLeadersDeath() {
        Duration minute = Duration.ofMinutes(1);
        try (LeaderLease a1 = storeA.lease(minute); LeaderLease b1 = storeB.lease(minute)) {
            assertThat(a1.acquire("a", "http://198.18.0.1:7400")).hasValue(1);

            TestPostgres.server().stop();
            TestPostgres.server().start();

            assertThat(b1.acquire("b", "http://198.18.0.2:7400")).as("a's lock went with the restart").isEmpty();
            assertThat(a1.renew(1)).isTrue();
            assertThat(b1.acquire("b", "http://198.18.0.2:7400")).as("a's lock taken back").isEmpty();
            a1.close();
            assertThat(Awaitility.await("b takes over once a's session ended").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50)).until(() -> b1.acquire("b", "http://198.18.0.2:7400"),
                            OptionalLong::isPresent)).hasValue(2);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
