package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import koala.common.time.Poll;
import koala.scheduler.storage.LeaderLease;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Whether this scheduler leads the schedulers that share its store: it waits as a standby until the
 * lease is free and takes it ({@link #awaitLeading}), then renews it every {@link #RENEW_EVERY}
 * ({@link #lead}) and steps down, once, when a renewal is refused, when it could not renew for a
 * whole term, or when the store refused a write ({@link #lost}).
 */
final class Leadership implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(Leadership.class);
    /** How long a lease lasts without renewal: a standby takes over within about this after the leader's death. */
    static final Duration TERM = Duration.ofSeconds(3);
    static final Duration RENEW_EVERY = Duration.ofSeconds(1);
    /** After a renewal that failed: a store restarted in a second or two costs no lease. */
    static final Duration RETRY_AFTER = Duration.ofMillis(200);
    /** How often a leader looks whether a term passed since its last renewal, even while one hangs. */
    static final Duration WATCH_EVERY = Duration.ofMillis(100);
    /** How often a standby looks whether the lease is free. */
    static final Duration LOOK_EVERY = Duration.ofMillis(250);

    /** A scheduler's part: the lifecycle, as a transition table. */
    enum Role {
        STANDBY, LEADING, STEPPED_DOWN;

        private static final Map<Role, Set<Role>> NEXT = Map.of(
                STANDBY, Set.of(LEADING, STEPPED_DOWN),
                LEADING, Set.of(STEPPED_DOWN),
                STEPPED_DOWN, Set.of());

        boolean mayBecome(Role next) {
            return NEXT.get(this).contains(next);
        }
    }

    private final LeaderLease lease;
    private final String name;
    private final String address;
    private final InstantSource clock;
    /** Made when it starts renewing: a scheduler alone on its store (H2) never renews, so has no such thread. */
    private final Supplier<ScheduledExecutorService> timers;
    private ScheduledExecutorService timer;
    private Role role = Role.STANDBY;
    private long epoch;
    private Instant renewedAt;
    private Instant leadingSince;
    private Consumer<String> steppedDown = reason -> { };

    Leadership(LeaderLease lease, String name, String address, InstantSource clock,
               Supplier<ScheduledExecutorService> timers) {
        this.lease = lease;
        this.name = name;
        this.address = address;
        this.clock = clock;
        this.timers = timers;
    }

    /**
     * Blocks until this scheduler holds the lease, looking every {@link #LOOK_EVERY}; {@code waiting} hears the
     * leader whenever it changes (a standby tells its callers who leads). Returns the epoch it leads at.
     */
    long awaitLeading(Consumer<Optional<LeaderLease.Holder>> waiting) throws InterruptedException {
        Looking looking = new Looking(waiting);
        // the database sends no word when a lease passes: a standby looks again
        if (!new Poll(clock, LOOK_EVERY).until(looking::took, Duration.ofDays(36_500))) {
            throw new InterruptedException("stopped while a standby");
        }
        return leading(looking.taken);
    }

    /** One look at the lease, as a standby: takes it when it is free, else tells who leads when that changed. */
    private final class Looking {
        private final Consumer<Optional<LeaderLease.Holder>> waiting;
        private Optional<LeaderLease.Holder> told;
        private long taken;

        Looking(Consumer<Optional<LeaderLease.Holder>> waiting) {
            this.waiting = waiting;
        }

        boolean took() {
            try {
                OptionalLong got = lease.acquire(name, address);
                if (got.isPresent()) {
                    taken = got.getAsLong();
                    return true;
                }
                Optional<LeaderLease.Holder> now = lease.holder().map(h -> new LeaderLease.Holder(h.name(), h.address(),
                        h.epoch(), true));
                if (!now.equals(told)) {
                    LOG.info("standby: {} leads (epoch {}); this scheduler takes over once its lease passes or its "
                            + "session with the store ends",
                            now.map(LeaderLease.Holder::name).orElse("nobody"), now.map(LeaderLease.Holder::epoch).orElse(0L));
                    waiting.accept(now);
                    told = now;
                }
            } catch (RuntimeException e) {
                LOG.warn("standby: the lease cannot be read now ({}); looking again", e.getMessage());
            }
            return false;
        }
    }

    /** Leads at once: a store only this scheduler opens. */
    void awaitLeadingNow() {
        long taken = lease.acquire(name, address).orElseThrow();
        synchronized (this) {
            role = Role.LEADING;
            epoch = taken;
            leadingSince = clock.instant();
        }
    }

    private synchronized long leading(long taken) {
        require(Role.LEADING);
        role = Role.LEADING;
        epoch = taken;
        renewedAt = clock.instant();
        leadingSince = renewedAt;
        LOG.info("this scheduler ({}) leads now, at epoch {}: {}", name, taken, lease.howTaken());
        return taken;
    }

    /**
     * Renews the lease every {@link #RENEW_EVERY} from now on (a lease of a store of its own needs none);
     * {@code steppedDown} hears why, once, if it is lost.
     */
    void lead(Consumer<String> steppedDown) {
        synchronized (this) {
            this.steppedDown = steppedDown;
            if (lease == LeaderLease.ALONE) {
                return;
            }
            timer = timers.get();
        }
        timer.scheduleWithFixedDelay(this::renew, RENEW_EVERY.toMillis(), RENEW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        // a renewal waiting on a cut network holds its thread for its time-outs: the term is watched apart
        timer.scheduleWithFixedDelay(this::watch, WATCH_EVERY.toMillis(), WATCH_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Steps down once a term passed since the last renewal, whatever the renewal under way is doing. */
    private void watch() {
        Instant last;
        synchronized (this) {
            if (role != Role.LEADING) {
                return;
            }
            last = renewedAt;
        }
        if (Duration.between(last, clock.instant()).compareTo(TERM) >= 0) {
            lost("its lease of epoch " + epoch() + " was not renewed for " + TERM.toSeconds() + " s (the store does not"
                    + " answer in time)");
        }
    }

    private void renew() {
        long held;
        Instant last;
        synchronized (this) {
            if (role != Role.LEADING) {
                return;
            }
            held = epoch;
            last = renewedAt;
        }
        Instant asked = clock.instant();
        try {
            if (lease.renew(held)) {
                synchronized (this) {
                    renewedAt = asked;
                }
            } else {
                lost("its lease of epoch " + held + " was not renewed: it passed, or another scheduler took it over");
            }
        } catch (RuntimeException e) {
            if (Duration.between(last, clock.instant()).compareTo(TERM) >= 0) {
                lost("its lease of epoch " + held + " could not be renewed for " + TERM.toSeconds() + " s ("
                        + e.getMessage() + ")");
            } else {
                LOG.warn("the lease of epoch {} could not be renewed ({}); trying again in {} ms", held, e.getMessage(),
                        RETRY_AFTER.toMillis());
                retry();
            }
        }
    }

    private void retry() {
        ScheduledExecutorService on;
        synchronized (this) {
            on = timer;
        }
        try {
            on.schedule(this::renew, RETRY_AFTER.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing: nothing to renew any more
        }
    }

    /** This scheduler leads no more (a renewal refused, or the store refused a write): it steps down, once. */
    void lost(String reason) {
        Consumer<String> tell;
        synchronized (this) {
            if (!role.mayBecome(Role.STEPPED_DOWN) || role == Role.STANDBY) {
                return;
            }
            role = Role.STEPPED_DOWN;
            tell = steppedDown;
        }
        LOG.error("this scheduler ({}) steps down: {}; it writes nothing more", name, reason);
        tell.accept(reason);
    }

    synchronized Role role() {
        return role;
    }

    synchronized long epoch() {
        return epoch;
    }

    /** Its name among the schedulers sharing its store: host and process id. */
    String name() {
        return name;
    }

    /** When this scheduler took the lead; null before. */
    synchronized Instant since() {
        return leadingSince;
    }

    /** A scheduler stopping cleanly lets its lease go, so that a standby takes over at once. */
    @Override
    public void close() {
        long held;
        synchronized (this) {
            if (timer != null) {
                timer.shutdownNow();
            }
            if (role != Role.LEADING || lease == LeaderLease.ALONE) {
                return;
            }
            role = Role.STEPPED_DOWN;
            held = epoch;
        }
        try {
            lease.resign(held);
            LOG.info("this scheduler ({}) stopped and let its lease of epoch {} go", name, held);
        } catch (RuntimeException e) {
            LOG.warn("the lease of epoch {} could not be let go ({}): a standby takes over once it passes", held,
                    e.getMessage());
        } finally {
            lease.close();
        }
    }

    private void require(Role next) {
        if (!role.mayBecome(next)) {
            throw new IllegalStateException("a scheduler " + role + " cannot become " + next);
        }
    }
}
