package koala.sge;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.resourcemanager.ResourceManager.Call;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.ExitTimeoutException;
import org.ggf.drmaa.JobInfo;
import org.ggf.drmaa.JobTemplate;
import org.ggf.drmaa.Session;
import org.ggf.drmaa.SessionFactory;

/**
 * The agent's one DRMAA session, bound at {@code init} to the cell named by the process
 * environment. The session can be closed and opened again when the qmaster goes away and comes
 * back. Every call is timed: SGE's libdrmaa can block for good when the qmaster dies under it, and
 * {@link #oldestCall} lets the agent notice a wedged session instead of hanging silently.
 */
final class DrmaaCell {
    @FunctionalInterface
    private interface DrmaaWork<T> {
        T run() throws DrmaaException;
    }

    private final Session session;
    private final InstantSource clock;
    private final Map<Long, Call> calls = new ConcurrentHashMap<>();
    private final AtomicLong callIds = new AtomicLong();
    private volatile boolean open;
    private volatile int generation;
    private volatile String drmSystem = "";

    /** @param session from {@code SessionFactory.getFactory().getSession()}: loads libdrmaa, so a missing one fails at start */
    DrmaaCell(InstantSource clock, Session session) {
        this.clock = clock;
        this.session = session;
    }

    static DrmaaCell load(InstantSource clock) {
        return new DrmaaCell(clock, SessionFactory.getFactory().getSession());
    }

    boolean open() {
        return open;
    }

    /** Increases each time the session is opened; pilots of an older generation cannot be waited on. */
    int generation() {
        return generation;
    }

    String drmSystem() {
        return drmSystem;
    }

    synchronized void openSession() throws DrmaaException {
        if (!open) {
            timed("init", () -> {
                session.init("");
                return null;
            });
            drmSystem = session.getDrmSystem();
            generation++;
            open = true;
        }
    }

    synchronized void closeSession() {
        if (open) {
            open = false;
            try {
                timed("exit", () -> {
                    session.exit();
                    return null;
                });
            } catch (DrmaaException e) {
                // the session is gone either way; a new init starts afresh
            }
        }
    }

    /** Submits {@code spec} with {@code nativeSpec}, the whole of what it asks of SGE ({@link SgeClaim}); null: nothing. */
    String submit(PilotSpec spec, String nativeSpec) throws DrmaaException {
        return timed("runJob " + spec.name(), () -> {
            JobTemplate template = session.createJobTemplate();
            try {
                template.setJobName(spec.name());
                template.setRemoteCommand(spec.command());
                template.setArgs(spec.args());
                if (!spec.env().isEmpty()) {
                    template.setJobEnvironment(spec.env());
                }
                if (nativeSpec != null && !nativeSpec.isBlank()) {
                    template.setNativeSpecification(nativeSpec);
                }
                if (spec.workingDirectory() != null) {
                    template.setWorkingDirectory(spec.workingDirectory());
                }
                template.setOutputPath(":" + Optional.ofNullable(spec.stdout()).orElse("/dev/null"));
                if (spec.stderr() == null) {
                    template.setJoinFiles(true);
                } else {
                    template.setErrorPath(":" + spec.stderr());
                }
                return session.runJob(template);
            } finally {
                session.deleteJobTemplate(template);
            }
        });
    }

    void kill(String id) throws DrmaaException {
        timed("terminate " + id, () -> {
            session.control(id, Session.TERMINATE);
            return null;
        });
    }

    PilotState state(String id) throws DrmaaException {
        int status = timed("status " + id, () -> session.getJobProgramStatus(id));
        return switch (status) {
            case Session.QUEUED_ACTIVE -> PilotState.QUEUED;
            case Session.SYSTEM_ON_HOLD, Session.USER_ON_HOLD, Session.USER_SYSTEM_ON_HOLD -> PilotState.HELD;
            case Session.RUNNING -> PilotState.RUNNING;
            case Session.SYSTEM_SUSPENDED, Session.USER_SUSPENDED, Session.USER_SYSTEM_SUSPENDED ->
                    PilotState.SUSPENDED;
            case Session.DONE -> PilotState.DONE;
            case Session.FAILED -> PilotState.FAILED;
            default -> PilotState.UNKNOWN;
        };
    }

    /** The next finished job of this session, waiting at most {@code timeout}; empty on time-out. */
    Optional<JobInfo> awaitAnyFinished(Duration timeout) throws DrmaaException {
        try {
            return Optional.of(timed("wait any", () -> session.wait(Session.JOB_IDS_SESSION_ANY,
                    Math.max(1, timeout.toSeconds()))));
        } catch (ExitTimeoutException e) {
            return Optional.empty();
        }
    }

    /** The DRMAA call that has been running longest, if any. */
    Optional<Call> oldestCall() {
        return calls.values().stream().min((a, b) -> a.started().compareTo(b.started()));
    }

    private <T> T timed(String what, DrmaaWork<T> work) throws DrmaaException {
        long id = callIds.incrementAndGet();
        calls.put(id, new Call(what, clock.instant()));
        try {
            return work.run();
        } finally {
            calls.remove(id);
        }
    }
}
