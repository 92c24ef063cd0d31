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
 * for it ({@link Watched}) must answer its health route. One of this host whose process is gone is
 * started again at once from its durable state, as the instance's owner, and takes the instance over
 * ({@code RunnerMain --adopt}); one whose process is there but has not answered for
 * {@code hungAfter} is killed and started again. A runner of another host (a scheduler that took the
 * lead over from one there) cannot be looked into: its pid means nothing here, and it cannot be killed
 * from here. It is judged by its health route alone, and once silent for {@code hungAfter} a runner
 * is started on this host in its place, at an address of this host. A start that fails is tried again
 * after 1 s, 2 s, 4 s...; after {@code tries} failed starts the instance fails with every reason, which
 * gives its nodes back: an allocation never stays RUNNING with no runner. Each restart goes into the
 * instance's history.
 *
 * <p>Every start is of a new generation ({@code koala.api.scheduler.RunnerGeneration}), recorded in the
 * store with the runner's host and address before the runner starts ({@link Instances#replacing}): from
 * then on the scheduler refuses the calls of the runner it replaces, which stops on the refusal. A runner
 * of another host that lives on after all (a host paused, or cut off and back) thus ends nothing and
 * gives nothing back. On this host it changes nothing that can be seen: the runner killed or dead was
 * not calling anyway, and its successor serves at the same address with the same token.
 *
 * <p>Checks run on a thread of their own and starts on another executor, never on the scheduler's
 * loop, which only reads the instances and records the outcome ({@link Instances}).
 */
final class RunnerSupervisor implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RunnerSupervisor.class);

    /**
     * An instance whose runner is supervised.
     *
     * @param runner     where the runner in force serves
     * @param state      the runner's durable state file
     * @param owner      the instance's owner, whose account the runner runs as
     * @param host       the host the runner in force runs on; null: one registered before hosts were kept,
     *                   taken as this host's
     * @param generation which start of the instance's runner it is
     */
    record Watched(long id, URI runner, Path state, String owner, String host, long generation) {
        /** One on an unnamed host (this one) of no generation, as every runner was before they were kept. */
        Watched(long id, URI runner, Path state, String owner) {
            this(id, runner, state, owner, null, 0);
        }

        /** Whether the runner runs on {@code here}, where its pid and process tell whether it lives. */
        boolean on(String here) {
            return host == null || host.equals(here);
        }

        /** The runner to start in this one's place: on {@code here} at {@code url}, of {@code next} generation. */
        Watched replacedBy(String here, URI url, long next) {
            return new Watched(id, url, state, owner, here, next);
        }
    }

    /** What the supervisor needs of the scheduler (through its loop). */
    interface Instances {
        /** Running instances whose runners are supervised. */
        List<Watched> watched();

        /**
         * A runner is about to be started in the place of {@code w}'s on this host at {@code url}: records
         * it in the store as the instance's runner, of the next generation, which it answers. From then on
         * the calls of {@code w}'s runner are refused.
         */
        long replacing(Watched w, String host, URI url);

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
         * Where a runner started on this host in the place of {@code w}'s, a runner of another host, serves:
         * this host's address on the grid, at {@code w}'s port if it is free here.
         */
        URI addressHere(Watched w);

        /**
         * Starts the runner {@code w} (of its generation, at its address) from its state and waits until it
         * answers.
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

    /** How long a runner's instance, first seen, may go without a state to read before its runner counts as dead. */
    static final Duration NEW_RUNNER = Duration.ofSeconds(10);

    private final Instances instances;
    private final Runners runners;
    private final InstantSource clock;
    private final Executor starts;
    private final int tries;
    private final Duration hungAfter;
    private final Map<Long, Trouble> trouble = new HashMap<>();
    /** When each watched instance was first seen: one seen lately may not have written its state yet. */
    private final Map<Long, Instant> firstSeen = new HashMap<>();
    /** This host's name, as runners give theirs. */
    private final String host;
    private ScheduledExecutorService checks;

    /** @param host this host's name, as the runners' registrations give theirs */
    RunnerSupervisor(Instances instances, Runners runners, InstantSource clock, Executor starts, int tries,
                     Duration hungAfter, String host) {
        this.host = host;
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
        Instant now = clock.instant();
        for (Watched w : instances.watched()) {
            seen.add(w.id());
            synchronized (this) {
                firstSeen.putIfAbsent(w.id(), now);
            }
            Trouble t = due(w);
            if (t != null) {
                starts.execute(() -> restart(w, t));
            }
        }
        synchronized (this) {
            trouble.keySet().retainAll(seen);
            firstSeen.keySet().retainAll(seen);
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

    /**
     * {@code w}'s runner does not answer. One of this host is dead when its process is gone, hung once silent
     * for {@code hungAfter}; one of another host may live on for all this host can tell, and is replaced
     * once silent for {@code hungAfter}, without a kill. One of this host whose state cannot be read is dead,
     * unless its instance was first seen less than {@link #NEW_RUNNER} ago: a runner that has just registered its
     * instance writes its state a moment later (FaultIT's was replaced 2 s after it registered, and its
     * replacement could not bind the port the first still held).
     */
    private Trouble dead(Watched w, Instant now) {
        boolean here = w.on(host);
        Optional<Boolean> alive = here ? runners.alive(w) : Optional.empty();
        Trouble t;
        boolean young;
        synchronized (this) {
            t = trouble.computeIfAbsent(w.id(), k -> new Trouble(now));
            young = now.isBefore(firstSeen.getOrDefault(w.id(), now).plus(NEW_RUNNER));
        }
        if (here && alive.isEmpty() && young) {
            return null;
        }
        boolean mayLive = here ? alive.orElse(false) : true;
        if (mayLive && now.isBefore(t.since.plus(hungAfter))) {
            return null; // busy for a moment, or in a long collection; or a host away for a moment
        }
        long silent = Duration.between(t.since, now).toSeconds();
        if (!here) {
            t.why = "it runs on " + w.host() + ", whose processes this host cannot see, and its health route at "
                    + w.runner() + " did not answer for " + silent + " s; one is started on " + host + " in its place";
        } else if (alive.orElse(false)) {
            runners.kill(w);
            t.why = "it did not answer for " + silent + " s; killed";
        } else {
            t.why = alive.isPresent() ? "its process is gone" : "it does not answer, and its state cannot be read";
        }
        LOG.warn("instance {}: its runner at {} is dead ({}); starting it again", w.id(), w.runner(), t.why);
        synchronized (this) {
            t.starting = true;
        }
        return t;
    }

    /**
     * Starts a runner in the place of {@code w}'s: first the next generation goes into the store (so the one
     * replaced is refused from then on, should it live), then the runner starts, as that generation.
     */
    private void restart(Watched w, Trouble t) {
        Instant start = clock.instant();
        String started;
        try {
            URI url = w.on(host) ? w.runner() : runners.addressHere(w);
            Watched next = w.replacedBy(host, url, instances.replacing(w, host, url));
            started = runners.start(next) + ", generation " + next.generation() + (url.equals(w.runner()) ? ""
                    : ", at " + url);
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
