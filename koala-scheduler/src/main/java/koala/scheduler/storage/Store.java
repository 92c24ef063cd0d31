package koala.scheduler.storage;

import java.util.List;
import java.util.Map;
import koala.common.api.TransitionView;
import koala.fjm.FrameworkStore;
import koala.scheduler.claiming.NodeClaim;

/**
 * Everything the scheduler keeps across a crash, behind one narrow interface: the scheduling code
 * never sees a database. Writes are durable when the call returns.
 */
public interface Store extends FrameworkStore, AutoCloseable {
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

    void saveJob(JobRecord job);

    void saveNode(NodeClaim node);

    void recordTransition(long job, TransitionView transition);

    void saveAgent(AgentRecord agent);

    /** Every job, oldest first. */
    List<JobRecord> jobs();

    List<NodeClaim> nodes(long job);

    List<TransitionView> history(long job);

    Map<String, AgentRecord> agents();

    @Override
    void close();
}
