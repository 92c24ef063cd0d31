package koala.scheduler.metrics;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import koala.api.scheduler.SiteResources;
import koala.scheduler.state.JobState;

/**
 * The grid as the scheduler's loop left it at the end of a round: immutable, so a scrape reads it
 * on its own thread while the loop goes on (the loop hands a new one over each round and never
 * touches an old one again).
 *
 * @param at          when the round ended
 * @param jobs        users' jobs (not allocations) in each live state: QUEUED, CLAIMING, RUNNING
 * @param queuedHigh  jobs in the placement queue's high priority
 * @param queuedLow   jobs in its low priority
 * @param sites       every configured site, in the configuration's order
 * @param instances   every running framework instance, by id
 * @param arbitration the grid's arbitration policy (fcfs, static-partition, fair, performance)
 */
public record GridReading(Instant at, Map<JobState, Integer> jobs, int queuedHigh, int queuedLow, List<Site> sites,
                          List<Instance> instances, String arbitration) {
    /** Before the first round: nothing read yet. */
    public static final GridReading NONE = new GridReading(Instant.EPOCH, Map.of(), 0, 0, List.of(), List.of(), "");

    public GridReading {
        Objects.requireNonNull(at, "at");
        jobs = Map.copyOf(jobs);
        sites = List.copyOf(sites);
        instances = List.copyOf(instances);
    }

    /** Whether a round has made it (or it is {@link #NONE}). */
    public boolean read() {
        return !at.equals(Instant.EPOCH);
    }

    /**
     * A site as {@code koala sites} shows it: its nodes by who holds them, and its agent.
     *
     * @param agentUp  whether its agent answered and its cell's snapshot is fresh
     * @param total    its nodes (0 while its agent is down: nothing is known of them)
     * @param idle     nodes neither KOALA nor local users occupy
     * @param koala    nodes KOALA's pilots hold
     * @param local    nodes local users' jobs take
     * @param claiming nodes KOALA asked for whose pilots have not started yet
     * @param seenAt   when the information service last heard from its agent with the cell's state;
     *                 null if never since the scheduler started
     * @param resources its hosts' cores, memory and GPUs, in all and free; null when its agent is down or no
     *                 host reports them
     */
    public record Site(String site, boolean agentUp, int total, int idle, int koala, int local, int claiming,
                       Instant seenAt, SiteResources resources) {
        /** A site whose hosts' resources are not known. */
        public Site(String site, boolean agentUp, int total, int idle, int koala, int local, int claiming,
                    Instant seenAt) {
            this(site, agentUp, total, idle, koala, local, claiming, seenAt, null);
        }
    }

    /**
     * A running framework instance as the scheduler knows it: the worker nodes it holds, its runner's
     * last report on them, its settings and its place under the grid's arbitration.
     *
     * @param workers         worker nodes it holds (claimed or claiming)
     * @param busyWorkers     of those, the ones its runner last reported busy
     * @param maxWorkers      its {@code F_max} (JDF over its home site's defaults)
     * @param cpuUtilization  mean CPU use of the workers its runner reported, as a ratio (0.5 = half a
     *                        core each); empty when it reported none
     * @param idleNodeSeconds worker node-seconds spent idle since the scheduler started, as its
     *                        runner's reports tell (each idle worker counts from its idle time on)
     * @param share           the nodes the arbitration policy holds it to now; empty when the policy
     *                        counts none (fcfs) or has not decided on it yet
     * @param fairShare       its weighted fair share of the grid's worker nodes; empty before the
     *                        first decision that saw it
     * @param figure          the figure its framework reports, a slowdown (1 = served as if alone);
     *                        empty when it reports none
     * @param rejectRate      the share of its work its framework says it rejected lately (0 to 1; the
     *                        reference framework: applications turned away over its last five minutes);
     *                        empty when it reports none
     */
    public record Instance(long id, String name, String owner, String policy, int workers, int busyWorkers,
                           int maxWorkers, OptionalDouble cpuUtilization, double idleNodeSeconds, OptionalInt share,
                           OptionalInt fairShare, OptionalDouble figure, OptionalDouble rejectRate) {
    }
}
