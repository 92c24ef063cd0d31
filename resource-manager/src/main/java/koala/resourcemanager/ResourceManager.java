package koala.resourcemanager;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;
import koala.api.site.CellJob;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;

/**
 * What KOALA needs of a cluster's local resource manager, and all it needs: the site agent of a
 * cluster drives its manager through this and nothing else. SGE ({@code koala.sge.SgeResourceManager})
 * is the first implementation; {@code FakeResourceManager} in this module's tests is the one unit
 * tests use.
 *
 * <p>The agent holds one connection to the manager at a time (SGE: one DRMAA session). It may be
 * lost when the manager goes away and opened again when it is back; {@link #connection()} counts
 * them. A job submitted under an earlier connection — or by an earlier agent process, since the
 * manager keeps its jobs when the agent restarts — is reattached by its id: {@link #state} and
 * {@link #accounting} answer for any job of the cluster, while {@link #awaitEnded} reports only
 * the current connection's jobs.
 *
 * <p>Calls may block for as long as the manager takes; the agent makes them off its request and
 * timer threads, and {@link #oldestCall} lets it notice a call that never returns.
 */
public interface ResourceManager {
    /** A call into the manager in progress. */
    record Call(String what, Instant started) {
    }

    /** The manager's short name, as messages name it: "SGE". */
    String name();

    /** The manager's name and version as it reports them, such as "SGE 8.1.9"; empty before the first connection. */
    String system();

    boolean connected();

    /** Increases each time a connection is opened; 0 before the first. */
    int connection();

    /** Opens a connection if none is open. */
    void connect() throws ManagerFailure;

    /** Closes the connection, if one is open; never fails. */
    void disconnect();

    /**
     * Refuses, with a {@link koala.common.failure.InvalidField} naming the field, what the manager
     * would not take: its rules for job names, paths and variables.
     */
    void validate(PilotSpec spec);

    /**
     * Submits a pilot. The manager says what it claims ({@link PilotSpec#needs()}: cores, memory, GPUs, wall
     * time, host, account) in its own words, and passes the site's own request ({@link PilotSpec#nativeSpec()},
     * already in its words) as it is, before them.
     *
     * @return the manager's id of the job
     */
    String submit(PilotSpec spec) throws ManagerFailure;

    /** Ends a job of this cluster, queued or running. Throws {@link UnknownJob} for a job the manager no longer has. */
    void cancel(String id) throws ManagerFailure;

    /** Where a job of this cluster is now. Throws {@link UnknownJob} for a job the manager no longer has. */
    PilotState state(String id) throws ManagerFailure;

    /** The next job of the current connection to end, waiting at most {@code timeout}; empty if none ended. */
    Optional<EndedJob> awaitEnded(Duration timeout) throws ManagerFailure;

    /** How a job that the manager no longer has ended, from its accounting; empty when it has no record. */
    Optional<JobEnd> accounting(String id);

    /**
     * {@link #accounting} with what the job claimed and used of memory where the manager's accounting
     * says it; by default nothing of memory.
     */
    default Optional<EndedJob> accounted(String id) {
        return accounting(id).map(end -> new EndedJob(id, end));
    }

    /**
     * The cluster now: its hosts with their load, its queues, and every job in it.
     *
     * @param ours tells KOALA's pilots from local users' jobs
     * @throws ManagerUnreachable when the manager does not answer
     */
    ClusterLoad load(Predicate<CellJob> ours);

    /** One quick look whether the manager answers; throws {@link ManagerUnreachable} if not. */
    void probe();

    /** The probe as a reason names it when it does not answer: "qstat -u koala". */
    String probeName();

    /** The call into the manager that has been running longest, if any. */
    Optional<Call> oldestCall();
}
