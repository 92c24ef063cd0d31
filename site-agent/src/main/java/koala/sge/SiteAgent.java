package koala.sge;

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
import koala.common.grid.SiteConfig;
import koala.common.failure.Conflict;
import koala.common.failure.Failure;
import koala.common.failure.NotFound;
import koala.common.failure.Refused;
import koala.common.failure.Unavailable;
import koala.common.site.AgentHealth;
import koala.common.site.CellJob;
import koala.common.site.CellSnapshot;
import koala.common.site.PilotSpec;
import koala.common.site.PilotState;
import koala.common.site.PilotStatus;
import org.ggf.drmaa.DrmCommunicationException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InvalidJobException;
import org.ggf.drmaa.JobInfo;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The site agent of one SGE cell: submits, tracks and kills KOALA's pilot jobs through DRMAA and
 * reports the cell's state. {@link CellHealth} probes the cell every few seconds; when the qmaster
 * does not answer the agent says so in {@link #health()} and refuses work with a 503. The DRMAA
 * session is opened and closed on a thread of its own (libdrmaa can block there): opened while the
 * cell answers, closed when the qmaster refused or DRMAA lost it, and kept through a stall (a
 * paused qmaster keeps its sessions). Pilots submitted in an earlier session are followed by
 * polling, since a new DRMAA session cannot wait on an old one's jobs.
 *
 * <p>Threads: {@code timer} runs the health rounds and the wedge check and never blocks;
 * {@code prober} runs the probe; {@code session} opens and closes the DRMAA session; {@code reaper}
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
     * @param callLimit    how long a DRMAA call may run before the session counts as wedged
     */
    record Timing(Duration probeEvery, Duration probeTimeout, Duration callLimit) {
    }

    private final SiteConfig site;
    private final SgeCommands sge;
    private final DrmaaCell drmaa;
    private final PilotBook book = new PilotBook(10_000);
    private final InstantSource clock;
    private final Threads threads;
    private final Timing timing;
    private final Runnable onWedged;
    private final CellHealth cell;
    /** Why DRMAA would not open a session although the cell answers; null when it did. */
    private volatile String sessionProblem;
    /** Set when DRMAA said it lost the qmaster: the session thread closes the session. */
    private final java.util.concurrent.atomic.AtomicBoolean sessionLost = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicBoolean sessionQueued = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;

    SiteAgent(SiteConfig site, SgeCommands sge, DrmaaCell drmaa, InstantSource clock, Threads threads, Timing timing,
              Runnable onWedged) {
        this.site = site;
        this.sge = sge;
        this.drmaa = drmaa;
        this.clock = clock;
        this.threads = threads;
        this.timing = timing;
        this.onWedged = onWedged;
        SgeCommands probe = sge.withTimeout(timing.probeTimeout());
        this.cell = new CellHealth(site.cell().cell(), () -> probe.run("qstat", "-u", site.agentUser()),
                "qstat -u " + site.agentUser(), clock, threads.timer(), threads.prober(), timing.probeEvery(),
                timing.probeTimeout(), s -> keepSessionSoon());
    }

    public void start() {
        cell.start();
        long every = timing.probeEvery().toMillis();
        threads.timer().scheduleWithFixedDelay(this::checkWedged, every, every, TimeUnit.MILLISECONDS);
        threads.reaper().execute(this::reapLoop);
    }

    /** UP when the cell answers and the DRMAA session is open; never waits on SGE, DRMAA or a lock. */
    public AgentHealth health() {
        CellHealth.State s = cell.now();
        String status = s.up() && drmaa.open() ? "UP" : "DOWN";
        String reason = !s.up() ? s.reason() : drmaa.open() ? null
                : Optional.ofNullable(sessionProblem).map(p -> "DRMAA: " + p).orElse("the cell answers; DRMAA session not open yet");
        return new AgentHealth(site.name(), site.cell().cell(), status, reason, s.since(), drmaa.drmSystem(), book.size());
    }

    // ---- cell state -------------------------------------------------------------------------

    public CellSnapshot snapshot() {
        try {
            Instant now = clock.instant();
            QstatXml.Result qstat = QstatXml.parse(sge.qstatFull(), this::isKoala);
            return new CellSnapshot(site.name(), now, QhostXml.parse(sge.qhost()), qstat.queues(), qstat.jobs());
        } catch (CellUnreachableException e) {
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
        PilotSpecs.validate(spec);
        requireUp();
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
            String id = drmaa.submit(withSiteDefaults);
            PilotStatus status = new PilotStatus(id, site.name(), spec.name(), PilotState.QUEUED, null, null,
                    clock.instant(), null);
            book.add(status, drmaa.generation());
            LOG.info("submitted pilot {} ({}) to cell {}", id, spec.name(), site.cell().cell());
            return status;
        } catch (DrmaaException e) {
            if (spec.secretFile() != null) {
                SecretFiles.deleteQuietly(Path.of(spec.secretFile()));
            }
            throw refused("submit", e);
        }
    }

    /** Every pilot, unfinished ones with their state read from SGE now. */
    public List<PilotStatus> pilots() {
        return book.all().stream().map(p -> p.state().isFinal() || !drmaa.open() ? p : status(p.id())).toList();
    }

    public PilotStatus status(String id) {
        PilotStatus known = book.get(id).orElseThrow(() -> new NotFound("pilot " + id + " of site " + site.name()));
        if (known.state().isFinal() || !drmaa.open()) {
            return known;
        }
        boolean ownSession = book.generationOf(id) == drmaa.generation();
        try {
            PilotState now = drmaa.state(id);
            if (!now.isFinal()) {
                return book.update(id, s -> withState(s, now));
            }
            return ownSession ? awaitReaper(id) : finishUnseen(id);
        } catch (InvalidJobException e) {
            return ownSession ? awaitReaper(id) : finishUnseen(id);
        } catch (DrmaaException e) {
            throw refused("status of " + id, e);
        }
    }

    /**
     * The pilot has finished in SGE; the reaper, the only thread that collects finish records of
     * this session, records it within a moment.
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
            drmaa.kill(id);
            LOG.info("killing pilot {} on cell {}", id, site.cell().cell());
            return book.get(id).orElseThrow();
        } catch (InvalidJobException e) {
            return finishUnseen(id);
        } catch (DrmaaException e) {
            throw refused("kill " + id, e);
        }
    }

    /**
     * Kills a job of the agent's account that this agent did not submit: a pilot of an earlier
     * agent, found by a restarted scheduler with no live node to own it. SGE refuses other users' jobs.
     */
    private PilotStatus killForeign(String id) {
        requireUp();
        try {
            drmaa.kill(id);
            LOG.info("killed pilot {} of an earlier agent on cell {}", id, site.cell().cell());
            return new PilotStatus(id, site.name(), null, PilotState.FAILED, null, "killed by KOALA", null,
                    clock.instant());
        } catch (InvalidJobException e) {
            throw new NotFound("job " + id + " in cell " + site.cell().cell());
        } catch (DrmaaException e) {
            throw refused("kill " + id, e);
        }
    }

    // ---- finishing --------------------------------------------------------------------------

    private PilotStatus finish(String id, JobInfo info) {
        PilotStatus done = book.update(id, s -> finished(s, info, book.killRequested(id)));
        LOG.info("pilot {} finished: {}{}", id, done.state(),
                done.exitStatus() != null ? " exit " + done.exitStatus() : " (" + done.reason() + ")");
        return done;
    }

    private PilotStatus finished(PilotStatus s, JobInfo info, boolean killed) {
        try {
            if (info.hasExited()) {
                return end(s, PilotState.DONE, info.getExitStatus(), null);
            }
            if (info.hasSignaled()) {
                return end(s, PilotState.FAILED, null, (killed ? "killed by KOALA (" : "killed by signal (")
                        + info.getTerminatingSignal() + ")");
            }
            // SGE reports a job deleted while queued or running as aborted
            return end(s, PilotState.FAILED, null, killed ? "killed by KOALA"
                    : "deleted in SGE before it finished (qdel, or its node was lost)");
        } catch (DrmaaException e) {
            return end(s, PilotState.FAILED, null, "finished, but SGE gave no details: " + e.getMessage());
        }
    }

    /**
     * A pilot SGE no longer knows and this session never saw finish: look it up in accounting.
     * {@code qacct} runs before the book is locked: it can take seconds, and the book's lock is one
     * that other requests need.
     */
    private PilotStatus finishUnseen(String id) {
        Optional<Accounting.Outcome> outcome = Accounting.lookUp(sge, id);
        PilotStatus result = book.update(id, s -> outcome
                .map(a -> a.exitStatus() != null ? end(s, PilotState.DONE, a.exitStatus(), null)
                        : end(s, PilotState.FAILED, null, a.reason()))
                .orElseGet(() -> end(s, PilotState.FAILED, null,
                        "ended while the agent could not follow it; exit status unknown")));
        LOG.info("pilot {} ended out of sight: {}", id, result);
        return result;
    }

    private PilotStatus withState(PilotStatus s, PilotState state) {
        return new PilotStatus(s.id(), s.site(), s.name(), state, null, null, s.submittedAt(), null);
    }

    private PilotStatus end(PilotStatus s, PilotState state, Integer exit, String reason) {
        return new PilotStatus(s.id(), s.site(), s.name(), state, exit, reason, s.submittedAt(), clock.instant());
    }

    /** Waits on DRMAA for this session's pilots to finish; polls pilots of earlier sessions. */
    private void reapLoop() {
        while (!closed) {
            try {
                pollOrphans();
                int generation = drmaa.generation();
                if (drmaa.open() && book.unfinishedIn(generation) > 0) {
                    Optional<JobInfo> info = drmaa.awaitAnyFinished(Duration.ofSeconds(1));
                    if (info.isPresent()) {
                        finish(info.get().getJobId(), info.get());
                    }
                } else {
                    book.awaitChange(timing.probeEvery().toMillis());
                }
            } catch (InterruptedException e) {
                return;
            } catch (DrmCommunicationException e) {
                lostSession(e.getMessage());
                pause();
            } catch (DrmaaException | RuntimeException e) {
                if (!closed) {
                    LOG.debug("reaper: {}", e.toString());
                    pause();
                }
            }
        }
    }

    private void pollOrphans() {
        if (drmaa.open()) {
            for (String id : book.orphansBefore(drmaa.generation())) {
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

    // ---- health and the DRMAA session -------------------------------------------------------

    /** Asks the session thread to look, once: while it is stuck in DRMAA, further asks are not queued up. */
    private void keepSessionSoon() {
        if (!closed && sessionQueued.compareAndSet(false, true)) {
            threads.session().execute(this::keepSession);
        }
    }

    /** On the session thread: close a session DRMAA lost or whose qmaster refused; open one while the cell answers. */
    void keepSession() {
        sessionQueued.set(false);
        CellHealth.State s = cell.now();
        boolean lost = sessionLost.getAndSet(false); // taken even if closed: it must not close a later session
        if (drmaa.open() && (lost || (!s.up() && !s.timedOut()))) {
            drmaa.closeSession();
            LOG.info("DRMAA session on cell {} closed", site.cell().cell());
        }
        if (s.up() && !drmaa.open() && !closed) {
            try {
                drmaa.openSession();
                sessionProblem = null;
                LOG.info("DRMAA session open on cell {} ({})", site.cell().cell(), drmaa.drmSystem());
            } catch (DrmaaException e) {
                sessionProblem = e.getMessage();
                LOG.warn("cell {}: DRMAA would not open a session: {}", site.cell().cell(), e.getMessage());
            }
        }
    }

    /** DRMAA lost the qmaster: the cell reads DOWN and the session is closed, to be opened anew. */
    private void lostSession(String reason) {
        sessionLost.set(true);
        cell.report(new CellUnreachableException(reason));
        keepSessionSoon();
    }

    /** On the timer: a DRMAA call that has not returned for the limit means libdrmaa is stuck for good. */
    private void checkWedged() {
        if (cell.now().up() && !drmaa.open()) {
            keepSessionSoon(); // a failed open is tried again each round
        }
        drmaa.oldestCall().ifPresent(call -> {
            Duration stuck = Duration.between(call.started(), clock.instant());
            if (stuck.compareTo(timing.callLimit()) > 0) {
                LOG.error("cell {}: DRMAA call '{}' has not returned for {} s; the session is wedged, restarting the agent",
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
                + Optional.ofNullable(health().reason()).orElse("DRMAA session not open"));
    }

    private Failure refused(String what, DrmaaException e) {
        if (e instanceof DrmCommunicationException) {
            lostSession(e.getMessage());
            return unavailable();
        }
        return new Refused(what + " refused by SGE: " + e.getMessage());
    }

    @Override
    public void close() {
        closed = true;
        threads.shutdownNow();
        drmaa.closeSession();
    }
}
