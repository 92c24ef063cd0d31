package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import koala.common.failure.Conflict;
import koala.scheduler.storage.StoreException;
import koala.scheduler.storage.UnitOfWork;
import org.junit.jupiter.api.Test;

class SchedulerLoopTest {
    /**
     * Three long-polls, each looking at its node and waiting up to 400 ms for a change, as
     * {@code GET /nodes/{id}/task} does. Their looks must not wake each other: each looks once,
     * then once more when its wait ends. (When a look woke the others they looked thousands of
     * times in those 400 ms, and the loop thread spun.)
     */
    @Test
    void longPollsLookingAtTheirNodesDoNotWakeEachOther() throws Exception {
        AtomicInteger looks = new AtomicInteger();
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor())) {
            List<Thread> polls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Thread poll = new Thread(() -> {
                    long deadline = System.nanoTime() + 400_000_000L;
                    loop.look(looks::incrementAndGet);
                    try {
                        while (System.nanoTime() < deadline) {
                            loop.awaitChange(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                            loop.look(looks::incrementAndGet);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                polls.add(poll);
                poll.start();
            }
            for (Thread poll : polls) {
                poll.join(5_000);
            }
        }
        assertThat(looks.get()).isBetween(6, 12);
    }

    @Test
    void aChangeWakesTheWaitingPolls() throws Exception {
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor())) {
            long[] waited = new long[1];
            Thread poll = new Thread(() -> {
                long start = System.nanoTime();
                try {
                    loop.awaitChange(30_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                waited[0] = (System.nanoTime() - start) / 1_000_000;
            });
            poll.start();
            org.awaitility.Awaitility.await().until(() -> poll.getState() == Thread.State.TIMED_WAITING);
            loop.call(() -> "a submit, a cancel, an arrival");
            poll.join(10_000);
            assertThat(waited[0]).isLessThan(10_000);
        }
    }

    /**
     * The loop is held for 700 ms. A caller that waits at most 200 ms for its work is told 503 and
     * its work is dropped, never done after it was told it failed; one whose work has begun gets
     * its answer within the grace.
     */
    @Test
    void workNotBegunInTimeIsDroppedAndTheCallerToldSo() throws Exception {
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger done = new AtomicInteger();
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(),
                java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(2))) {
            loop.post(() -> {
                try {
                    hold.await(700, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> loop.call(done::incrementAndGet))
                    .isInstanceOf(koala.common.failure.Unavailable.class)
                    .hasMessage("the scheduler is busy; nothing was done; try again");
            hold.countDown();
            assertThat(loop.call(() -> {
                Thread.sleep(300); // work that has begun and takes longer than the wait: a slow call on the loop
                return done.incrementAndGet();
            })).as("the second call's work, the first one's dropped").isEqualTo(1);
        }
    }

    /**
     * The store does not answer for a while (a database server restarting): no unit can begin, so nothing
     * ran and memory is as the store has it. The work waits and is tried every 100 ms, not in a busy loop,
     * nobody hears of a unit undone, and the caller is answered once the store answers again.
     */
    @Test
    void workWhoseUnitCannotBeginWaitsForTheStoreAndIsTriedEveryTenthOfASecond() throws Exception {
        Noting units = new Noting();
        units.beginFails = new StoreException("begin: Connection refused", null);
        List<Throwable> undone = Collections.synchronizedList(new ArrayList<>());
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(), units)) {
            loop.whenUndone(undone::add);
            java.util.concurrent.CompletableFuture<String> answer = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> loop.call(() -> "job 7 queued"));
            org.awaitility.Awaitility.await().until(() -> units.begins.get() >= 2);
            int from = units.begins.get();
            long since = System.nanoTime();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> units.begins.get() >= from + 5);
            assertThat(Duration.ofNanos(System.nanoTime() - since)).as("five more tries, each 100 ms after the last")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(400));

            units.beginFails = null;

            assertThat(answer.get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("job 7 queued");
            assertThat(undone).isEmpty();
        }
    }

    /** A store that only notes what happens: each unit's work, then its commit (or a failed commit). */
    private static final class Noting implements UnitOfWork {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger commits = new AtomicInteger();
        volatile RuntimeException commitFails;
        volatile RuntimeException beginFails;
        final AtomicInteger begins = new AtomicInteger();

        @Override
        public <T> T inTransaction(Supplier<T> work) {
            begins.incrementAndGet();
            if (beginFails != null) {
                throw beginFails;
            }
            T result = work.get();
            if (commitFails != null) {
                events.add("commit failed");
                throw commitFails;
            }
            events.add("commit " + commits.incrementAndGet());
            return result;
        }

        @Override
        public void afterCommit(Runnable action) {
            action.run();
        }
    }

    /** Job 7 is submitted: its caller is answered after the commit that keeps it, never before. */
    @Test
    void aCallerIsAnsweredOnlyAfterTheCommitThatKeepsWhatItWasToldOf() {
        Noting units = new Noting();
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(), units)) {
            String answer = loop.call(() -> {
                units.events.add("job 7 queued");
                return "job 7";
            });
            units.events.add("caller told: " + answer);
        }
        assertThat(units.events).containsExactly("job 7 queued", "commit 1", "caller told: job 7");
    }

    /**
     * While the loop is busy (a posted event holds it), five callers queue their calls; the loop takes
     * them up after the event, all in one unit: one commit for the six, and each caller gets its own
     * answer after it.
     */
    @Test
    void callsQueuedWhileTheLoopIsBusyShareOneCommit() throws Exception {
        Noting units = new Noting();
        CountDownLatch hold = new CountDownLatch(1);
        List<Throwable> undone = Collections.synchronizedList(new ArrayList<>());
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(), units)) {
            loop.whenUndone(undone::add);
            loop.post(() -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            List<Thread> callers = new ArrayList<>();
            List<String> answers = Collections.synchronizedList(new ArrayList<>());
            for (int i = 1; i <= 5; i++) {
                int call = i;
                Thread caller = new Thread(() -> answers.add(loop.call(() -> "answer " + call) + " after "
                        + units.commits.get() + " commit"));
                callers.add(caller);
                caller.start();
            }
            for (Thread caller : callers) {
                org.awaitility.Awaitility.await().until(() -> caller.getState() == Thread.State.TIMED_WAITING);
            }
            hold.countDown();
            for (Thread caller : callers) {
                caller.join(10_000);
            }
            assertThat(answers).containsExactlyInAnyOrder("answer 1 after 1 commit", "answer 2 after 1 commit",
                    "answer 3 after 1 commit", "answer 4 after 1 commit", "answer 5 after 1 commit");
            assertThat(units.commits.get()).isEqualTo(1);
        }
    }

    /**
     * A call fails after it wrote (it found job 7 already running, say): what it wrote is committed
     * with the rest of its unit, as memory keeps it, and the failure reaches its caller after that.
     */
    @Test
    void aCallThatFailsIsToldSoAfterWhatItWroteIsCommitted() {
        Noting units = new Noting();
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(), units)) {
            assertThatThrownBy(() -> loop.call(() -> {
                units.events.add("job 7's reason noted");
                throw new Conflict("job 7 is RUNNING: cannot place");
            })).isInstanceOf(Conflict.class).hasMessage("job 7 is RUNNING: cannot place");
            units.events.add("caller told it failed");
        }
        assertThat(units.events).containsExactly("job 7's reason noted", "commit 1", "caller told it failed");
    }

    /** The commit of a unit fails (the disk is full): every caller of the unit is told so, none that it was done. */
    @Test
    void whenTheCommitFailsEveryCallerOfTheUnitIsToldSo() throws Exception {
        Noting units = new Noting();
        units.commitFails = new StoreException("commit: No space left on device", null);
        CountDownLatch hold = new CountDownLatch(1);
        List<Throwable> undone = Collections.synchronizedList(new ArrayList<>());
        try (SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(), units)) {
            loop.whenUndone(undone::add);
            loop.post(() -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            List<Throwable> told = Collections.synchronizedList(new ArrayList<>());
            List<Thread> callers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Thread caller = new Thread(() -> {
                    try {
                        loop.call(() -> "done");
                        told.add(null);
                    } catch (RuntimeException e) {
                        told.add(e);
                    }
                });
                callers.add(caller);
                caller.start();
            }
            for (Thread caller : callers) {
                org.awaitility.Awaitility.await().until(() -> caller.getState() == Thread.State.TIMED_WAITING);
            }
            hold.countDown();
            for (Thread caller : callers) {
                caller.join(10_000);
            }
            assertThat(told).hasSize(3).allSatisfy(e -> assertThat(e).isSameAs(units.commitFails));
            org.awaitility.Awaitility.await("the scheduler hears its memory is ahead of its store, after its callers")
                    .atMost(Duration.ofSeconds(5)).until(() -> !undone.isEmpty());
            assertThat(undone).containsExactly(units.commitFails);
            units.commitFails = null;
            assertThat(loop.call(() -> "the next one")).as("the loop goes on").isEqualTo("the next one");
        }
    }
}
