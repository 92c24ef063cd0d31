package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import koala.scheduler.storage.LeaderLease;
import org.junit.jupiter.api.Test;

/** A scheduler's part among those sharing a store, on a lease the test scripts and a clock it moves. */
class LeadershipTest {
    private final TestGrid.Clock clock = new TestGrid.Clock();
    private final ScriptedLease lease = new ScriptedLease();
    private final Renewals renewals = new Renewals();
    private final Leadership leadership = new Leadership(lease, "head2:4242", "http://198.18.0.2:7070", clock,
            () -> renewals);
    private final List<String> steppedDown = new ArrayList<>();

    @Test
    void aStandbyTellsWhoLeadsOnceAndTakesTheLeaseWhenItIsFree() throws InterruptedException {
        lease.holder = Optional.of(new LeaderLease.Holder("head1:17", "http://198.18.0.1:7070", 4, true));
        lease.freeAfterLooks = 3;
        List<Optional<LeaderLease.Holder>> told = new ArrayList<>();

        long epoch = leadership.awaitLeading(told::add);

        assertThat(epoch).isEqualTo(5);
        assertThat(lease.looks).isEqualTo(3);
        assertThat(told).containsExactly(lease.holder);
        assertThat(leadership.role()).isEqualTo(Leadership.Role.LEADING);
        assertThat(renewals.task).as("renewing starts only when asked to lead").isNull();
    }

    @Test
    void aLeaderWhoseRenewalIsRefusedStepsDownOnceWithTheReason() throws InterruptedException {
        leads();
        lease.renewals = false;

        renewals.task.run();
        renewals.task.run();
        leadership.lost("the store refused a write: fenced at epoch 6");

        assertThat(leadership.role()).isEqualTo(Leadership.Role.STEPPED_DOWN);
        assertThat(steppedDown).containsExactly("its lease of epoch 5 was not renewed: it passed, or another scheduler"
                + " took it over");
    }

    @Test
    void aLeaderThatCannotReachTheStoreLeadsOnForLessThanATermAndStepsDownAtIt() throws InterruptedException {
        leads();
        renewals.task.run();
        lease.unreachable = true;

        clock.advance(Duration.ofMillis(2_900));
        renewals.task.run();
        assertThat(leadership.role()).isEqualTo(Leadership.Role.LEADING);

        clock.advance(Duration.ofMillis(100));
        renewals.task.run();
        assertThat(leadership.role()).isEqualTo(Leadership.Role.STEPPED_DOWN);
        assertThat(steppedDown).containsExactly("its lease of epoch 5 could not be renewed for 3 s (connection refused)");
    }

    @Test
    void aRenewalThatFailedIsTriedAgainAfter200Ms() throws InterruptedException {
        leads();
        lease.unreachable = true;
        clock.advance(Duration.ofSeconds(1));
        renewals.task.run();
        assertThat(renewals.retryAfterMs).isEqualTo(200);

        lease.unreachable = false; // the store back after its restart
        clock.advance(Duration.ofMillis(200));
        renewals.retry.run();
        clock.advance(Duration.ofMillis(2_900));
        renewals.watch.run();

        assertThat(leadership.role()).as("renewed at 1.2 s: the term runs to 4.2 s").isEqualTo(Leadership.Role.LEADING);
    }

    @Test
    void aLeaderWhoseRenewalHangsStepsDownAtTheTermOnItsWatch() throws InterruptedException {
        leads();
        // the renewal due at 1 s waits on a cut network: it has not returned when the term passes
        clock.advance(Duration.ofMillis(2_900));
        renewals.watch.run();
        assertThat(leadership.role()).isEqualTo(Leadership.Role.LEADING);

        clock.advance(Duration.ofMillis(100));
        renewals.watch.run();

        assertThat(leadership.role()).isEqualTo(Leadership.Role.STEPPED_DOWN);
        assertThat(steppedDown).containsExactly("its lease of epoch 5 was not renewed for 3 s (the store does not answer"
                + " in time)");
    }

    @Test
    void aLeaderStoppingCleanlyLetsItsLeaseGoAndStopsRenewing() throws InterruptedException {
        leads();

        leadership.close();

        assertThat(lease.resigned).containsExactly(5L);
        assertThat(renewals.isShutdown()).isTrue();
        assertThat(leadership.role()).isEqualTo(Leadership.Role.STEPPED_DOWN);
    }

    @Test
    void aSchedulerAloneOnItsStoreLeadsAtOnceWithNoRenewalsAndStopsWhenItsStoreRefusesAUnit() {
        Leadership alone = new Leadership(LeaderLease.ALONE, "head1:17", "http://127.0.0.1:7070", clock, () -> {
            throw new AssertionError("a scheduler alone on its store renews nothing");
        });

        alone.awaitLeadingNow();
        alone.lead(steppedDown::add);
        assertThat(alone.epoch()).isEqualTo(1);
        alone.lost("a unit of work could not be committed (No space left on device)");
        alone.close();

        assertThat(steppedDown).containsExactly("a unit of work could not be committed (No space left on device)");
        assertThat(alone.role()).isEqualTo(Leadership.Role.STEPPED_DOWN);
    }

    private void leads() throws InterruptedException {
        lease.freeAfterLooks = 1;
        leadership.awaitLeading(holder -> { });
        leadership.lead(steppedDown::add);
    }

    /** Holds the renewal, the watch and a retry the leader schedules, for the test to run when it chooses. */
    private static final class Renewals extends ScheduledThreadPoolExecutor {
        Runnable task;
        Runnable watch;
        Runnable retry;
        long retryAfterMs;

        Renewals() {
            super(0);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
            if (unit.toMillis(delay) == Leadership.RENEW_EVERY.toMillis()) {
                task = command;
            } else {
                watch = command;
            }
            return null;
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            retry = command;
            retryAfterMs = unit.toMillis(delay);
            return null;
        }
    }

    /** Held by another scheduler at epoch 4 until the given look; renewals answered as the test says. */
    private static final class ScriptedLease implements LeaderLease {
        Optional<Holder> holder = Optional.empty();
        int freeAfterLooks;
        int looks;
        boolean renewals = true;
        boolean unreachable;
        final List<Long> resigned = new ArrayList<>();

        @Override
        public OptionalLong acquire(String name, String address) {
            looks++;
            return looks >= freeAfterLooks ? OptionalLong.of(5) : OptionalLong.empty();
        }

        @Override
        public boolean renew(long epoch) {
            if (unreachable) {
                throw new IllegalStateException("connection refused");
            }
            return renewals;
        }

        @Override
        public Optional<Holder> holder() {
            return holder;
        }

        @Override
        public void resign(long epoch) {
            resigned.add(epoch);
        }

        @Override
        public void close() {
        }
    }
}
