package koala.runner;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;

/**
 * The runner's side of the scheduler (the paper's Schedd): it opens the instance's allocation,
 * registers the instance with the FrameworkJobManager, and asks for and gives back its nodes. Every
 * call blocks its caller until the scheduler answers or the call's time-out ends it: a refusal is
 * the {@link koala.common.failure.Failure} the scheduler reported, an unreachable or silent scheduler
 * {@link koala.common.failure.Unavailable}. So the runner never calls
 * it on its loop thread: {@link SchedulerCalls} makes the calls on threads of their own and hands
 * the outcomes back to the loop. {@link HttpSchedd} is the scheduler's HTTP API; tests stand a fake
 * in its place.
 */
interface Schedd {
    /**
     * Opens the allocation, with its roles' tags and placement constraints (the scheduler keeps them and
     * places the grows with them), and registers the instance; its id is the allocation's.
     */
    long open(String name, String jdfFile, String jdf, String policy, Map<String, String> parameters, String runner,
              LongFunction<String> stateFile, List<koala.api.scheduler.RolePlacement> roles);

    /** Takes over the allocation a runner before this one opened. */
    void adopt(long id);

    /** The instance's id (its allocation's); -1 before {@link #open} or {@link #adopt}. */
    long instance();

    /** Asks for nodes; a request repeated under the same request id gets the first grant again. */
    GrowResult grow(GrowRequest request);

    void release(List<String> nodes, String reason);

    /** Points the FrameworkJobManager at the instance's master. */
    void master(String node, String address);

    /** The allocation with the nodes it holds now (not every node it ever had, nor its history). */
    JobView allocation();

    /** The instance's workers' activity, for sharing the grid; what the grid's arbitration asks of it. */
    ShareOrders report(ShareReport report);

    /** Idle nodes over the grid, as the scheduler's KIS sees them now. */
    int idleNodes();

    /** The sites whose agents the scheduler cannot reach now (a remote site's link down, say). */
    Set<String> sitesDown();

    void close();

    /** Ends the allocation as FAILED, with the cause. */
    void fail(String reason);
}
