package koala.scheduler;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Supervises the framework runners: every check, the runner of each running instance that asked
 * for it ({@link Watched}) must answer its health route. One whose process is gone is started
 * again at once from its durable state, as the instance's owner, and takes the instance over
 * ({@code RunnerMain --adopt}); one whose process is there but has not answered for
 * {@code hungAfter} is killed and started again. A start that fails is tried again after 1 s,
 * 2 s, 4 s...; after {@code tries} failed starts the instance fails with every reason, which gives
 * its nodes back: an allocation never stays RUNNING with no runner. Each restart goes into the
 * instance's history.
 *
 * <p>Checks run on a thread of their own and starts on another executor, never on the scheduler's
 * loop, which only reads the instances and records the outcome ({@link Instances}).
 */
final class RunnerSupervisor implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RunnerSupervisor.class);

    /**
     * An instance whose runner is supervised.
     *
     * @param state the runner's durable state file
     * @param owner the instance's owner, whose account the runner runs as
     */
    record Watched(long id, URI runner, Path state, String owner) {
    }

    /** What the supervisor needs of the scheduler (through its loop). */
    interface Instances {
        /** Running instances whose runners are supervised. */
        List<Watched> watched();

        /** The runner of {@code id} was started again: for its history. */
        void restarted(long id, String note);

        /** The runner of {@code id} cannot be started again: the instance fails with {@code reason}. */
        void failed(long id, String reason);
    }

    /** The runners' processes. */
    interface Runners {
        /** Whether the runner of {@code w} answers, as that instance's. */
        boolean answers(Watched w);

        /** Whether the runner's process is alive; empty when it cannot be told (no readable state). */
        Optional<Boolean> alive(Watched w);

        /** Kills a runner that is alive but does not answer. */
        void kill(Watched w);

        /**
         * Starts the runner again from its state and waits until it answers.
         *
         * @return what to tell of the new runner (its pid, its log)
         * @throws Exception with the reason it did not start
         */
        String start(Watched w) throws Exception;
    }

    /** What the supervisor knows of one instance whose runner is in trouble. */
    private static final class Trouble {
        final Instant since;
        String why;
        int failures;
        final List<String> reasons = new ArrayList<>();
        Instant nextTry;
        boolean starting;
        boolean gaveUp;

        Trouble(Instant since) {
            this.since = since;
            this.nextTry = since;
        }
    }

    private final Instances instances;
    private final Runners runners;
    private final InstantSource clock;
    private final Executor starts;
    private final int tries;
    private final Duration hungAfter;
    private final Map<Long, Trouble> trouble = new HashMap<>();
    private ScheduledExecutorService checks;

    RunnerSupervisor(Instances instances, Runners runners, InstantSource clock, Executor starts, int tries,
                     Duration hungAfter) {
        this.instances = instances;
        this.runners = runners;
        this.clock = clock;
        this.starts = starts;
        this.tries = tries;
        this.hungAfter = hungAfter;
    }

    /** Checks every {@code period} on {@code executor} from now on. */
    void watch(ScheduledExecutorService executor, Duration period) {
        this.checks = executor;
        executor.scheduleWithFixedDelay(() -> {
            try {
                check();
            } catch (RuntimeException e) {
                LOG.warn("runner check failed, next one in {} ms: {}", period.toMillis(), e.toString());
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One check of every supervised runner. */
    void check() {
        Set<Long> seen = new HashSet<>();
        for (Watched w : instances.watched()) {
            seen.add(w.id());
            Trouble t = due(w);
            if (t != null) {
                starts.execute(() -> restart(w, t));
            }
        }
        synchronized (this) {
            trouble.keySet().retainAll(seen);
        }
    }

    /** The trouble of {@code w}'s runner when it is to be started now; null when it answers or must be waited for. */
    private Trouble due(Watched w) {
        Instant now = clock.instant();
        synchronized (this) {
            Trouble t = trouble.get(w.id());
            if (t != null && (t.starting || t.gaveUp || now.isBefore(t.nextTry))) {
                return null;
            }
            if (t != null && t.failures > 0) {
                t.starting = true;
                return t;
            }
        }
        if (runners.answers(w)) {
            synchronized (this) {
                trouble.remove(w.id());
            }
            return null;
        }
        return dead(w, now);
    }

    /** {@code w}'s runner does not answer: dead when its process is gone, hung once silent for {@code hungAfter}. */
    private Trouble dead(Watched w, Instant now) {
        Optional<Boolean> alive = runners.alive(w);
        Trouble t;
        synchronized (this) {
            t = trouble.computeIfAbsent(w.id(), k -> new Trouble(now));
        }
        if (alive.orElse(false) && now.isBefore(t.since.plus(hungAfter))) {
            return null; // busy for a moment, or in a long collection
        }
        if (alive.orElse(false)) {
            runners.kill(w);
            t.why = "it did not answer for " + Duration.between(t.since, now).toSeconds() + " s; killed";
        } else {
            t.why = alive.isPresent() ? "its process is gone" : "it does not answer, and its state cannot be read";
        }
        LOG.warn("instance {}: its runner at {} is dead ({}); starting it again", w.id(), w.runner(), t.why);
        synchronized (this) {
            t.starting = true;
        }
        return t;
    }

    private void restart(Watched w, Trouble t) {
        Instant start = clock.instant();
        String started;
        try {
            started = runners.start(w);
        } catch (Exception e) {
            failed(w, t, e.getMessage() == null ? e.toString() : e.getMessage(), start);
            return;
        }
        long took = Duration.between(t.since, clock.instant()).toMillis();
        String note = "the framework runner died (" + t.why + "); started again" + (t.failures == 0 ? ""
                : " at try " + (t.failures + 1)) + ": " + started + ", serving " + took + " ms after it was first found not answering";
        LOG.info("instance {}: {}", w.id(), note);
        synchronized (this) {
            trouble.remove(w.id());
        }
        tell(() -> instances.restarted(w.id(), note));
    }

    /** Records an outcome; an instance that ended meanwhile refuses it, which changes nothing. */
    private void tell(Runnable record) {
        try {
            record.run();
        } catch (RuntimeException e) {
            LOG.info("could not record a runner's restart: {}", e.getMessage());
        }
    }

    private void failed(Watched w, Trouble t, String reason, Instant start) {
        boolean giveUp;
        synchronized (this) {
            t.failures++;
            t.reasons.add("try " + t.failures + ": " + reason);
            t.nextTry = clock.instant().plus(Duration.ofSeconds(1L << Math.min(t.failures - 1, 10)));
            t.starting = false;
            giveUp = t.failures >= tries;
            t.gaveUp = giveUp;
        }
        LOG.warn("instance {}: its runner did not start again ({} ms): {}", w.id(),
                Duration.between(start, clock.instant()).toMillis(), reason);
        if (giveUp) {
            tell(() -> instances.failed(w.id(), "its framework runner died (" + t.why + ") and could not be started "
                    + "again (" + String.join("; ", t.reasons) + ")"));
        }
    }

    @Override
    public void close() {
        if (checks != null) {
            checks.shutdownNow();
        }
    }
}
