package koala.sge;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import koala.common.grid.SiteConfig;
import koala.common.http.ApiException;
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
 * reports the cell's state. A probe checks the cell every few seconds; when the qmaster does not
 * answer the agent says so in {@link #health()}, refuses work with a 503, closes its DRMAA session,
 * and opens a new one once the qmaster is back. Pilots submitted before an outage are followed by
 * polling, since a new DRMAA session cannot wait on an old one's jobs.
 */
public final class SiteAgent implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SiteAgent.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration REAP_GRACE = Duration.ofSeconds(5);

    private final SiteConfig site;
    private final SgeCommands sge;
    private final DrmaaCell drmaa;
    private final PilotBook book = new PilotBook(10_000);
    private final InstantSource clock;
    private final ScheduledExecutorService timer;
    private final ExecutorService reaperThread;
    private final Duration probeEvery;
    private final Duration callLimit;
    private final Runnable onWedged;
    private volatile AgentHealth health;
    private volatile boolean closed;

    SiteAgent(SiteConfig site, SgeCommands sge, DrmaaCell drmaa, InstantSource clock, ScheduledExecutorService timer,
              ExecutorService reaperThread, Duration probeEvery, Duration callLimit, Runnable onWedged) {
        this.site = site;
        this.sge = sge;
        this.drmaa = drmaa;
        this.clock = clock;
        this.timer = timer;
        this.reaperThread = reaperThread;
        this.probeEvery = probeEvery;
        this.callLimit = callLimit;
        this.onWedged = onWedged;
        this.health = health("DOWN", "not checked yet");
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::probe, 0, probeEvery.toMillis(), TimeUnit.MILLISECONDS);
        reaperThread.execute(this::reapLoop);
    }

    public AgentHealth health() {
        AgentHealth h = health;
        return new AgentHealth(h.site(), h.cell(), h.status(), h.reason(), h.since(), drmaa.drmSystem(), book.size());
    }

    // ---- cell state -------------------------------------------------------------------------

    public CellSnapshot snapshot() {
        try {
            Instant now = clock.instant();
            QstatXml.Result qstat = QstatXml.parse(sge.qstatFull(), this::isKoala);
            return new CellSnapshot(site.name(), now, QhostXml.parse(sge.qhost()), qstat.queues(), qstat.jobs());
        } catch (CellUnreachableException e) {
            markDown(e.getMessage());
            throw unavailable();
        }
    }

    private boolean isKoala(CellJob job) {
        return book.get(job.id()).isPresent()
                || (site.agentUser().equals(job.owner()) && job.name() != null && job.name().startsWith(PilotSpec.PREFIX));
    }

    // ---- pilots -----------------------------------------------------------------------------

    public PilotStatus submit(PilotSpec spec) {
        PilotSpecs.validate(spec);
        requireUp();
        PilotSpec withSiteDefaults = spec.nativeSpec() == null ? spec.withNativeSpec(site.nodeNativeSpec()) : spec;
        try {
            String id = drmaa.submit(withSiteDefaults);
            PilotStatus status = new PilotStatus(id, site.name(), spec.name(), PilotState.QUEUED, null, null,
                    clock.instant(), null);
            book.add(status, drmaa.generation());
            LOG.info("submitted pilot {} ({}) to cell {}", id, spec.name(), site.cell().cell());
            return status;
        } catch (DrmaaException e) {
            throw refused("submit", e);
        }
    }

    /** Every pilot, unfinished ones with their state read from SGE now. */
    public List<PilotStatus> pilots() {
        return book.all().stream().map(p -> p.state().isFinal() || !drmaa.open() ? p : status(p.id())).toList();
    }

    public PilotStatus status(String id) {
        PilotStatus known = book.get(id).orElseThrow(() -> ApiException.notFound("pilot " + id + " of site " + site.name()));
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
            throw ApiException.notFound("job " + id + " in cell " + site.cell().cell());
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

    /** A pilot SGE no longer knows and this session never saw finish: look it up in accounting. */
    private PilotStatus finishUnseen(String id) {
        PilotStatus result = book.update(id, s -> Accounting.lookUp(sge, id)
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
                    book.awaitChange(probeEvery.toMillis());
                }
            } catch (InterruptedException e) {
                return;
            } catch (DrmCommunicationException e) {
                markDown(e.getMessage());
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
            book.awaitChange(probeEvery.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- health -----------------------------------------------------------------------------

    /** Checks the cell, opens the DRMAA session when it can, and notices a wedged session. */
    void probe() {
        try {
            sge.run("qstat", "-u", site.agentUser());
            if (!drmaa.open()) {
                drmaa.openSession();
                LOG.info("DRMAA session open on cell {} ({})", site.cell().cell(), drmaa.drmSystem());
            }
            markUp();
        } catch (CellUnreachableException e) {
            markDown(e.getMessage());
        } catch (DrmaaException e) {
            markDown("DRMAA: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("probe failed", e);
        }
        checkWedged();
    }

    private void checkWedged() {
        drmaa.oldestCall().ifPresent(call -> {
            Duration stuck = Duration.between(call.started(), clock.instant());
            if (stuck.compareTo(callLimit) > 0) {
                markDown("DRMAA call '" + call.what() + "' has not returned for " + stuck.toSeconds()
                        + " s; the session is wedged, restarting the agent");
                onWedged.run();
            }
        });
    }

    private void markUp() {
        if (!"UP".equals(health.status())) {
            LOG.info("cell {} reachable", site.cell().cell());
            health = health("UP", null);
        }
    }

    private void markDown(String reason) {
        if (!"DOWN".equals(health.status()) || !reason.equals(health.reason())) {
            LOG.warn("cell {} unreachable: {}", site.cell().cell(), reason);
            health = health("DOWN", reason);
        }
        drmaa.closeSession();
    }

    private AgentHealth health(String status, String reason) {
        return new AgentHealth(site.name(), site.cell().cell(), status, reason, clock.instant(), null, 0);
    }

    private void requireUp() {
        if (!drmaa.open() || !health.up()) {
            throw unavailable();
        }
    }

    private ApiException unavailable() {
        return ApiException.unavailable("cell " + site.cell().cell() + " of site " + site.name() + " is unreachable: "
                + Optional.ofNullable(health.reason()).orElse("DRMAA session not open"));
    }

    private ApiException refused(String what, DrmaaException e) {
        if (e instanceof DrmCommunicationException) {
            markDown(e.getMessage());
            return unavailable();
        }
        return new ApiException(422, what + " refused by SGE: " + e.getMessage());
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        reaperThread.shutdownNow();
        drmaa.closeSession();
    }
}
