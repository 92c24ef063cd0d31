package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
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
}
