package koala.scheduler.storage;

import java.util.List;
import java.util.Map;
import koala.common.api.TransitionView;
import koala.fjm.FrameworkStore;
import koala.scheduler.claiming.NodeClaim;

/**
 * Everything the scheduler keeps across a crash, behind one narrow interface: the scheduling code
 * never sees a database. A write is durable when the call returns, or, inside a unit of work
 * ({@link #inTransaction}), when the unit returns, together with the unit's other writes: the
 * scheduler's loop makes each batch of calls, events and rounds one unit, so that a transition's
 * state, its history and what the caller is answered are kept together, and the answer goes out
 * after them.
 */
public interface Store extends FrameworkStore, UnitOfWork, AutoCloseable {
    /**
     * Where a site's agent was, so that a restarted scheduler re-attaches to it.
     *
     * @param secret the secret the agent was given (base64url); null in a record from before agents had one
     */
    record AgentRecord(String site, String url, long pid, String secret) {
        @Override
        public String toString() {
            return "AgentRecord[site=" + site + ", url=" + url + ", pid=" + pid + "]"; // never the secret, in a log
        }
    }

    /**
     * This scheduler's mark in its pilots' SGE job names, kept with its state: a scheduler treats as
     * its own (adopts, or kills as orphans) only pilots with its mark, so that several schedulers
     * — a test one beside a production one — can share a cell and its account.
     */
    String pilotTag();

    long nextJobId();

    /** A value the scheduler keeps beside its jobs under {@code name} (the grid arbiter's book, as JSON). */
    java.util.Optional<String> state(String name);

    void saveState(String name, String value);

    /**
     * Saves a job as it is {@code at}; a job saved ended for the first time ended then. What a job is
     * (its name, JDF, kind, policy, priority, owner, submission) is kept as it was first saved; later
     * saves change what changes in its life: its state, tries, claim failures and reason.
     */
    void saveJob(JobRecord job, java.time.Instant at);

    void saveNode(NodeClaim node);

    /** An allocation's new component (one grow), as JSON: kept beside the job, never rewriting it. */
    void appendComponent(long job, int index, String component);

    /** An allocation's components added by its grows, in order, as JSON. */
    List<String> components(long job);

    /**
     * Keeps an allocation's roles' tags and placement constraints (JSON, as its runner sent them when it
     * opened it), beside the job, for as long as the job is kept.
     */
    void saveRoles(long job, String roles);

    /** An allocation's roles' tags and placement constraints, as JSON; empty when it was opened without any. */
    java.util.Optional<String> roles(long job);

    void recordTransition(long job, TransitionView transition);

    void saveAgent(AgentRecord agent);

    /** Every job, oldest first. */
    List<JobRecord> jobs();

    List<NodeClaim> nodes(long job);

    List<TransitionView> history(long job);

    Map<String, AgentRecord> agents();

    /**
     * A named request that was carried out: its answer (JSON), what a retry of it is answered instead
     * of doing it again, and the request itself (JSON: what a retry must repeat; null in an answer kept
     * before requests were), so that the name reused for another request is refused.
     */
    record Answer(String answer, String request) {
    }

    /** The answer given to {@code owner}'s request named {@code requestId}, if that request was carried out. */
    java.util.Optional<Answer> answer(String owner, String requestId);

    /** Keeps the answer to a named request with the request, in the same call as the work it answers is kept. */
    void saveAnswer(String owner, String requestId, String request, String answer, java.time.Instant at);

    /** One job, live or ended, as stored; empty if it never was or has been forgotten. */
    java.util.Optional<JobRecord> job(long id);

    /** Jobs that have not ended, and those that ended after {@code endedAfter}, oldest first. */
    List<JobRecord> jobsSince(java.time.Instant endedAfter);

    /** A node's span (one pilot's hold of its node, for accounting), as it is now. */
    void saveSpan(koala.scheduler.claiming.NodeSpan span);

    /** A job's spans, by node and attempt. */
    List<koala.scheduler.claiming.NodeSpan> spans(long job);

    /**
     * The usage record (JSON) of a job that ended, kept here until the accounting file has it: what a
     * restarted scheduler writes again if the file does not. A null record marks a job that is ending,
     * before its end is saved: a scheduler killed before its record was made makes it after the restart.
     */
    void saveUsageRecord(long job, String record);

    /** The accounting file has job {@code job}'s record since {@code at}. */
    void usageRecordWritten(long job, java.time.Instant at);

    /**
     * The usage records kept here that the accounting file may not have yet, by job, in job order; a
     * job marked as ending has a null record.
     */
    Map<Long, String> unwrittenUsageRecords();

    /** What an instance's workers did so far, kept now and then so that a restart loses little of it. */
    void saveWorkerTally(long job, koala.scheduler.accounting.WorkerTally tally);

    java.util.Optional<koala.scheduler.accounting.WorkerTally> workerTally(long job);

    /**
     * Forgets jobs that ended before {@code before} (with their nodes, spans, history, worker tallies, usage
     * records the accounting file has, and the answers to requests older than it): the retention of {@code scheduler.retention}. Returns how many.
     */
    int forget(java.time.Instant before);

    @Override
    void close();
}
