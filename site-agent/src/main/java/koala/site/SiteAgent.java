package koala.site;

import java.io.IOException;

import java.nio.file.Path;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import koala.api.site.AgentHealth;
import koala.api.site.CellJob;
import koala.api.site.CellSnapshot;
import koala.api.site.MemoryUse;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.api.site.PilotStatus;
import koala.common.failure.Conflict;
import koala.common.failure.Failure;
import koala.common.failure.NotFound;
import koala.common.failure.Refused;
import koala.common.failure.Unavailable;
import koala.grid.SiteConfig;
import koala.resourcemanager.ClusterLoad;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;
import koala.resourcemanager.ManagerFailure;
import koala.resourcemanager.ManagerLost;
import koala.resourcemanager.ManagerUnreachable;
import koala.resourcemanager.ResourceManager;
import koala.resourcemanager.UnknownJob;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The site agent of one cluster: submits, tracks and kills KOALA's pilot jobs through the
 * cluster's {@link ResourceManager} and reports the cluster's state. {@link CellHealth} probes the
 * manager every few seconds; when it does not answer the agent says so in {@link #health()} and
 * refuses work with a 503. The connection to the manager (SGE: the DRMAA session) is opened and
 * closed on a thread of its own (a manager's library can block there): opened while the cluster
 * answers, closed when the manager refused or lost it, and kept through a stall (a paused SGE
 * qmaster keeps its sessions). Pilots submitted under an earlier connection are followed by
 * polling, since a new connection cannot wait on an old one's jobs.
 *
 * <p>Threads: {@code timer} runs the health rounds and the wedge check and never blocks;
 * {@code prober} runs the probe; {@code session} opens and closes the connection; {@code reaper}
 * collects finished pilots. {@link #health()} reads volatile fields only.
 */
public final class SiteAgent implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SiteAgent.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration REAP_GRACE = Duration.ofSeconds(5);

    /** The agent's threads, each with one job (see the class comment). */
    record Threads(ScheduledExecutorService timer, ExecutorService prober, ExecutorService session,
                   ExecutorService reaper) {
        void shutdownNow() {
            timer.shutdownNow();
            prober.shutdownNow();
            session.shutdownNow();
            reaper.shutdownNow();
        }
    }

    /**
     * @param probeEvery   how often the cell is probed
     * @param probeTimeout how long a probe may take before the cell reads DOWN
     * @param callLimit    how long a call into the manager may run before the connection counts as wedged
     */
    record Timing(Duration probeEvery, Duration probeTimeout, Duration callLimit) {
    }

    private final SiteConfig site;
    private final ResourceManager manager;
    private final PilotBook book = new PilotBook(10_000);
    private final InstantSource clock;
    private final Threads threads;
    private final Timing timing;
    private final Runnable onWedged;
    private final CellHealth cell;
    /** Why the manager would not open a connection although the cluster answers; null when it did. */
    private volatile String sessionProblem;
    /** Set when the manager said the connection was lost: the session thread closes it. */
    private final java.util.concurrent.atomic.AtomicBoolean sessionLost = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicBoolean sessionQueued = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;

    SiteAgent(SiteConfig site, ResourceManager manager, InstantSource clock, Threads threads, Timing timing,
              Runnable onWedged) {
        this.site = site;
        this.manager = manager;
        this.clock = clock;
        this.threads = threads;
        this.timing = timing;
        this.onWedged = onWedged;
        this.cell = new CellHealth(site.cell().cell(), manager::probe, manager.probeName(), clock, threads.timer(),
                threads.prober(), timing.probeEvery(), timing.probeTimeout(), s -> keepSessionSoon());
    }

    public void start() {
        cell.start();
        long every = timing.probeEvery().toMillis();
        threads.timer().scheduleWithFixedDelay(this::checkWedged, every, every, TimeUnit.MILLISECONDS);
        threads.reaper().execute(this::reapLoop);
    }

    /** UP when the cluster answers and the connection is open; never waits on the manager or a lock. */
    public AgentHealth health() {
        CellHealth.State s = cell.now();
        String status = s.up() && manager.connected() ? "UP" : "DOWN";
        String reason = !s.up() ? s.reason() : manager.connected() ? null
                : Optional.ofNullable(sessionProblem).map(p -> manager.name() + ": " + p)
                        .orElse("the cluster answers; no connection to its manager yet");
        return new AgentHealth(site.name(), site.cell().cell(), status, reason, s.since(), manager.system(), book.size());
    }

    // ---- cell state -------------------------------------------------------------------------

    public CellSnapshot snapshot() {
        try {
            Instant now = clock.instant();
            ClusterLoad load = manager.load(this::isKoala);
            return new CellSnapshot(site.name(), now, load.hosts(), load.queues(), load.jobs());
        } catch (ManagerUnreachable e) {
            cell.report(e);
            throw unavailable();
        }
    }

    /** A pilot of KOALA's: this agent's, or one by its name (users' own agents submit their pilots under their accounts). */
    private boolean isKoala(CellJob job) {
        return book.get(job.id()).isPresent() || (job.name() != null && job.name().startsWith(PilotSpec.PREFIX));
    }

    // ---- pilots -----------------------------------------------------------------------------

    public PilotStatus submit(PilotSpec spec) {
        manager.validate(spec);
        requireUp();
        // the site's own request for a node; the manager says what the pilot claims beside it
        PilotSpec withSiteDefaults = spec.nativeSpec() == null ? spec.withNativeSpec(site.nodeNativeSpec()) : spec;
        if (spec.secret() != null) {
            try {
                SecretFiles.write(Path.of(spec.secretFile()), spec.secret());
            } catch (IOException e) {
                throw new Conflict("cannot hand pilot " + spec.name() + " its secret in " + spec.secretFile()
                        + ": " + e.getMessage(), "secretFile");
            }
        }
        try {
            String id = manager.submit(withSiteDefaults);
            PilotStatus status = new PilotStatus(id, site.name(), spec.name(), PilotState.QUEUED, null, null,
                    clock.instant(), null);
            book.add(status, manager.connection());
            LOG.info("submitted pilot {} ({}) to cell {}", id, spec.name(), site.cell().cell());
            return status;
        } catch (ManagerFailure e) {
            if (spec.secretFile() != null) {
                SecretFiles.deleteQuietly(Path.of(spec.secretFile()));
            }
            throw refused("submit", e);
        }
    }

    /** Every pilot, unfinished ones with their state read from the manager now. */
    public List<PilotStatus> pilots() {
        return book.all().stream().map(p -> p.state().isFinal() || !manager.connected() ? p : status(p.id())).toList();
    }

    public PilotStatus status(String id) {
        PilotStatus known = book.get(id).orElseThrow(() -> new NotFound("pilot " + id + " of site " + site.name()));
        if (known.state().isFinal() || !manager.connected()) {
            return known;
        }
        boolean ownSession = book.generationOf(id) == manager.connection();
        try {
            PilotState now = manager.state(id);
            if (!now.isFinal()) {
                return book.update(id, s -> withState(s, now));
            }
            return ownSession ? awaitReaper(id) : finishUnseen(id);
        } catch (UnknownJob e) {
            return ownSession ? awaitReaper(id) : finishUnseen(id);
        } catch (ManagerFailure e) {
            throw refused("status of " + id, e);
        }
    }

    /**
     * The pilot has finished in the manager; the reaper, the only thread that collects finish
     * records of this connection, records it within a moment.
     */
    private PilotStatus awaitReaper(String id) {
        Instant deadline = clock.instant().plus(REAP_GRACE);
        try {
            while (!book.get(id).orElseThrow().state().isFinal() && clock.instant().isBefore(deadline)) {
                book.awaitChange(POLL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        PilotStatus current = book.get(id).orElseThrow();
        return current.state().isFinal() ? current : finishUnseen(id);
    }

    /** The pilot's status once it is no longer {@code from}, or after {@code timeout}. */
    public PilotStatus awaitChange(String id, PilotState from, Duration timeout) throws InterruptedException {
        Instant deadline = clock.instant().plus(timeout);
        PilotStatus current = status(id);
        while (current.state() == from && clock.instant().isBefore(deadline)) {
            book.awaitChange(Math.min(POLL.toMillis(), Duration.between(clock.instant(), deadline).toMillis()));
            current = status(id);
        }
        return current;
    }

    public PilotStatus kill(String id) {
        if (book.get(id).isEmpty()) {
            return killForeign(id);
        }
        PilotStatus known = book.get(id).orElseThrow();
        if (known.state().isFinal()) {
            return known;
        }
        requireUp();
        book.requestKill(id);
        try {
            manager.cancel(id);
            LOG.info("killing pilot {} on cell {}", id, site.cell().cell());
            return book.get(id).orElseThrow();
        } catch (UnknownJob e) {
            return finishUnseen(id);
        } catch (ManagerFailure e) {
            throw refused("kill " + id, e);
        }
    }

    /**
     * Kills a job of the agent's account that this agent did not submit: a pilot of an earlier
     * agent, found by a restarted scheduler with no live node to own it. The manager refuses other users' jobs.
     */
    private PilotStatus killForeign(String id) {
        requireUp();
        try {
            manager.cancel(id);
            LOG.info("killed pilot {} of an earlier agent on cell {}", id, site.cell().cell());
            return new PilotStatus(id, site.name(), null, PilotState.FAILED, null, "killed by KOALA", null,
                    clock.instant());
        } catch (UnknownJob e) {
            throw new NotFound("job " + id + " in cell " + site.cell().cell());
        } catch (ManagerFailure e) {
            throw refused("kill " + id, e);
        }
    }

    // ---- finishing --------------------------------------------------------------------------

    private PilotStatus finish(EndedJob ended) {
        String id = ended.id();
        PilotStatus done = book.update(id, s -> finished(s, ended, book.killRequested(id)));
        LOG.info("pilot {} finished: {}{}", id, done.state(),
                done.exitStatus() != null ? " exit " + done.exitStatus() : " (" + done.reason() + ")");
        return done;
    }

    /**
     * The pilot as it ended; a pilot KOALA asked to kill says so rather than the manager's words, and one
     * the manager stopped for using more memory than it claimed says that.
     */
    private PilotStatus finished(PilotStatus s, EndedJob ended, boolean killed) {
        JobEnd end = ended.end();
        MemoryUse memory = ended.memory();
        if (!killed && memory != null && memory.exceeded()) {
            return end(s, PilotState.FAILED, null, memory.describe() + ": stopped by " + manager.name(), memory);
        }
        if (end instanceof JobEnd.Exited e) {
            return end(s, PilotState.DONE, e.status(), null, memory);
        }
        if (end instanceof JobEnd.Signalled g) {
            return end(s, PilotState.FAILED, null, (killed ? "killed by KOALA (" : "killed by signal (") + g.signal() + ")",
                    memory);
        }
        if (end instanceof JobEnd.Deleted d) {
            return end(s, PilotState.FAILED, null, killed ? "killed by KOALA" : d.how(), memory);
        }
        return end(s, PilotState.FAILED, null, ((JobEnd.Failed) end).reason(), memory);
    }

    /**
     * A pilot the manager no longer knows and this connection never saw finish: look it up in
     * accounting. The look-up ({@code qacct} for SGE) runs before the book is locked: it can take
     * seconds, and the book's lock is one that other requests need.
     */
    private PilotStatus finishUnseen(String id) {
        Optional<EndedJob> outcome = manager.accounted(id);
        boolean killed = book.killRequested(id);
        PilotStatus result = book.update(id, s -> outcome.map(ended -> finished(s, ended, killed))
                .orElseGet(() -> end(s, PilotState.FAILED, null,
                        "ended while the agent could not follow it; exit status unknown", null)));
        LOG.info("pilot {} ended out of sight: {}", id, result);
        return result;
    }

    private PilotStatus withState(PilotStatus s, PilotState state) {
        return new PilotStatus(s.id(), s.site(), s.name(), state, null, null, s.submittedAt(), null);
    }

    private PilotStatus end(PilotStatus s, PilotState state, Integer exit, String reason, MemoryUse memory) {
        return new PilotStatus(s.id(), s.site(), s.name(), state, exit, reason, s.submittedAt(), clock.instant(),
                memory);
    }

    /** Waits on the manager for this connection's pilots to finish; polls pilots of earlier connections. */
    private void reapLoop() {
        while (!closed) {
            try {
                pollOrphans();
                int generation = manager.connection();
                if (manager.connected() && book.unfinishedIn(generation) > 0) {
                    manager.awaitEnded(Duration.ofSeconds(1)).ifPresent(this::finish);
                } else {
                    book.awaitChange(timing.probeEvery().toMillis());
                }
            } catch (InterruptedException e) {
                return;
            } catch (ManagerLost e) {
                lostSession(e.getMessage());
                pause();
            } catch (ManagerFailure | RuntimeException e) {
                if (!closed) {
                    LOG.debug("reaper: {}", e.toString());
                    pause();
                }
            }
        }
    }

    private void pollOrphans() {
        if (manager.connected()) {
            for (String id : book.orphansBefore(manager.connection())) {
                status(id);
            }
        }
    }

    private void pause() {
        try {
            book.awaitChange(timing.probeEvery().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- health and the connection to the manager -------------------------------------------

    /** Asks the session thread to look, once: while it is stuck in the manager, further asks are not queued up. */
    private void keepSessionSoon() {
        if (!closed && sessionQueued.compareAndSet(false, true)) {
            threads.session().execute(this::keepSession);
        }
    }

    /** On the session thread: close a connection the manager lost or refused; open one while the cluster answers. */
    void keepSession() {
        sessionQueued.set(false);
        CellHealth.State s = cell.now();
        boolean lost = sessionLost.getAndSet(false); // taken even if closed: it must not close a later session
        if (manager.connected() && (lost || (!s.up() && !s.timedOut()))) {
            manager.disconnect();
            LOG.info("connection to cell {} closed", site.cell().cell());
        }
        if (s.up() && !manager.connected() && !closed) {
            try {
                manager.connect();
                sessionProblem = null;
                LOG.info("connection to cell {} open ({})", site.cell().cell(), manager.system());
            } catch (ManagerFailure e) {
                sessionProblem = e.getMessage();
                LOG.warn("cell {}: its manager would not open a connection: {}", site.cell().cell(), e.getMessage());
            }
        }
    }

    /** The manager lost the connection: the cell reads DOWN and the connection is closed, to be opened anew. */
    private void lostSession(String reason) {
        sessionLost.set(true);
        cell.report(new ManagerUnreachable(reason));
        keepSessionSoon();
    }

    /** On the timer: a call that has not returned for the limit means the manager's library is stuck for good. */
    private void checkWedged() {
        if (cell.now().up() && !manager.connected()) {
            keepSessionSoon(); // a failed open is tried again each round
        }
        manager.oldestCall().ifPresent(call -> {
            Duration stuck = Duration.between(call.started(), clock.instant());
            if (stuck.compareTo(timing.callLimit()) > 0) {
                LOG.error("cell {}: call '{}' has not returned for {} s; the connection is wedged, restarting the agent",
                        site.cell().cell(), call.what(), stuck.toSeconds());
                onWedged.run();
            }
        });
    }

    private void requireUp() {
        if (!health().up()) {
            throw unavailable();
        }
    }

    private Unavailable unavailable() {
        return new Unavailable("cell " + site.cell().cell() + " of site " + site.name() + " is unreachable: "
                + Optional.ofNullable(health().reason()).orElse("no connection to its manager"));
    }

    private Failure refused(String what, ManagerFailure e) {
        if (e instanceof ManagerLost) {
            lostSession(e.getMessage());
            return unavailable();
        }
        return new Refused(what + " refused by " + manager.name() + ": " + e.getMessage());
    }

    @Override
    public void close() {
        closed = true;
        threads.shutdownNow();
        manager.disconnect();
    }
}
