package koala.site;

import koala.resourcemanager.ManagerUnreachable;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import koala.common.time.Durations;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Whether the agent's cell answers, kept fresh off the request threads: every {@code every} a
 * probe (a {@code qstat}) runs on a thread of its own, and {@link #now()} reads the last verdict
 * without waiting on SGE or on any lock. The rules, as {@code CellHealthTest} works them through:
 *
 * <ul>
 *   <li>a probe that succeeds makes the cell UP at once, also the first one after a stall;</li>
 *   <li>a probe that fails makes it DOWN with SGE's reason;</li>
 *   <li>a probe still running {@code timeout} after it started makes it DOWN at that instant
 *       ("qstat -u koala did not answer within 5 s"), without waiting for it to end; no second probe
 *       starts while one runs (the command is killed at its own time-out, so it ends);</li>
 *   <li>a failure reported by other work (a snapshot's {@code qstat}) makes it DOWN until the next
 *       probe succeeds;</li>
 *   <li>UP holds for {@code every + timeout} after the last success: if probing itself stops, the
 *       cell reads DOWN rather than UP for ever.</li>
 * </ul>
 *
 * We probe on a schedule, not per request, because the probe {@code /health} used to run could hang
 * with the qmaster, so a stalled cell read UP for the whole stall.
 */
final class CellHealth {
    private static final Logger LOG = LogManager.getLogger(CellHealth.class);

    /** One look at the cell: returns if it answered, throws {@link ManagerUnreachable} if not. */
    @FunctionalInterface
    interface Probe {
        void check();
    }

    /**
     * The cell as last seen.
     *
     * @param since    when it last went UP or DOWN
     * @param timedOut DOWN because the cell did not answer in time (a stall), not because it refused
     */
    record State(boolean up, String reason, Instant since, boolean timedOut) {
        static State up(Instant at) {
            return new State(true, null, at, false);
        }

        static State down(String reason, Instant at, boolean timedOut) {
            return new State(false, reason, at, timedOut);
        }
    }

    private final String cell;
    private final Probe probe;
    private final String probeName;
    private final InstantSource clock;
    private final ScheduledExecutorService timer;
    private final Executor prober;
    private final Duration every;
    private final Duration timeout;
    private final Consumer<State> onChange;
    private volatile State state;
    private volatile Instant lastSuccess;
    private long probes;
    private long running = -1; // the probe in flight, -1 for none

    /**
     * @param probeName names the probe in the reason when it does not answer, as the command's own time-out does
     * @param timer     runs the rounds and the time-outs; never blocks
     * @param prober    runs the probes; may block for up to the probe command's own time-out
     * @param onChange  told each change of UP/DOWN or of the reason
     */
    CellHealth(String cell, Probe probe, String probeName, InstantSource clock, ScheduledExecutorService timer,
               Executor prober, Duration every, Duration timeout, Consumer<State> onChange) {
        this.cell = cell;
        this.probe = probe;
        this.probeName = probeName;
        this.clock = clock;
        this.timer = timer;
        this.prober = prober;
        this.every = every;
        this.timeout = timeout;
        this.onChange = onChange;
        this.state = State.down("not checked yet", clock.instant(), false);
    }

    void start() {
        timer.scheduleWithFixedDelay(this::round, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The verdict now; reads volatile fields only. */
    State now() {
        State s = state;
        Instant last = lastSuccess;
        Instant stale = last == null ? null : last.plus(every).plus(timeout);
        if (s.up() && stale != null && clock.instant().isAfter(stale)) {
            return State.down("no probe of the cell has answered for "
                    + Durations.text(Duration.between(last, clock.instant())), stale, true);
        }
        return s;
    }

    /**
     * Work other than the probe found the cell not answering: DOWN with its reason, unless the cell is down
     * already. The probe's own reason then stays: it is the cell's answer to a plain question, where a
     * snapshot's command may say less (Slurm's {@code sinfo --json} says only "Unspecified error" of a
     * controller that does not answer, where {@code squeue} says "Unable to contact slurm controller").
     */
    synchronized void report(ManagerUnreachable e) {
        if (state.up()) {
            change(State.down(e.getMessage(), clock.instant(), e.timedOut()));
        }
    }

    /** Starts a probe unless one is still running. */
    synchronized void round() {
        if (running >= 0) {
            return;
        }
        long id = ++probes;
        running = id;
        timer.schedule(() -> overdue(id), timeout.toMillis(), TimeUnit.MILLISECONDS);
        prober.execute(() -> finished(id, attempt()));
    }

    private ManagerUnreachable attempt() {
        try {
            probe.check();
            return null;
        } catch (ManagerUnreachable e) {
            return e;
        } catch (RuntimeException e) {
            LOG.error("probe of cell {} failed", cell, e);
            return new ManagerUnreachable("the probe failed: " + e);
        }
    }

    private synchronized void finished(long id, ManagerUnreachable failure) {
        if (running == id) {
            running = -1;
        }
        if (failure == null) {
            lastSuccess = clock.instant();
            change(State.up(clock.instant()));
        } else {
            change(State.down(failure.getMessage(), clock.instant(), failure.timedOut()));
        }
    }

    private synchronized void overdue(long id) {
        if (running == id) {
            change(State.down(ManagerUnreachable.silent(probeName, timeout).getMessage(), clock.instant(), true));
        }
    }

    /** Keeps {@code since} while UP/DOWN stays the same; a new reason replaces the old one. */
    private void change(State next) {
        State current = state;
        if (current.up() == next.up() && java.util.Objects.equals(current.reason(), next.reason())) {
            return;
        }
        state = current.up() == next.up() ? new State(next.up(), next.reason(), current.since(), next.timedOut()) : next;
        if (next.up()) {
            LOG.info("cell {} answers", cell);
        } else {
            LOG.warn("cell {} unreachable: {}", cell, next.reason());
        }
        onChange.accept(state);
    }
}
