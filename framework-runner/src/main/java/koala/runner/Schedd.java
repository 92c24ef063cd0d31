package koala.runner;

import java.util.List;
import java.util.Map;
import koala.common.api.AllocationRequest;
import koala.common.api.FrameworkRegistration;
import koala.common.api.GrowRequest;
import koala.common.api.GrowResult;
import koala.common.api.JobView;
import koala.common.api.MasterAddress;
import koala.common.api.ReleaseRequest;
import koala.common.api.SchedulerClient;
import koala.common.api.SiteStatus;

/**
 * The runner's side of the scheduler (the paper's Schedd): it opens the instance's allocation,
 * registers the instance with the FrameworkJobManager, and asks for and gives back its nodes.
 */
final class Schedd {
    private final SchedulerClient scheduler;
    private long allocation = -1;

    Schedd(SchedulerClient scheduler) {
        this.scheduler = scheduler;
    }

    /** Opens the allocation and registers the instance; its id is the allocation's. */
    long open(String name, String jdfFile, String jdf, String policy, Map<String, String> parameters, String runner,
              java.util.function.LongFunction<String> stateFile) {
        allocation = scheduler.allocate(new AllocationRequest(name)).id();
        scheduler.register(new FrameworkRegistration(allocation, name, jdfFile, jdf, policy, parameters, runner,
                stateFile.apply(allocation)));
        return allocation;
    }

    /** Takes over the allocation a runner before this one opened. */
    void adopt(long id) {
        allocation = id;
    }

    long instance() {
        return allocation;
    }

    GrowResult grow(GrowRequest request) {
        return scheduler.grow(allocation, request);
    }

    void release(List<String> nodes, String reason) {
        scheduler.release(allocation, new ReleaseRequest(nodes, reason));
    }

    void master(String node, String address) {
        scheduler.master(allocation, new MasterAddress(node, address));
    }

    /** The allocation with the nodes it holds now (not every node it ever had, nor its history). */
    JobView allocation() {
        return scheduler.heldNow(allocation);
    }

    /** The instance's workers' activity, for sharing the grid; what the grid's arbitration asks of it. */
    koala.common.api.ShareOrders report(koala.common.api.ShareReport report) {
        return scheduler.report(allocation, report);
    }

    /** Idle nodes over the grid, as the scheduler's KIS sees them now. */
    int idleNodes() {
        return scheduler.sites().stream().mapToInt(SiteStatus::idle).sum();
    }

    /** The sites whose agents the scheduler cannot reach now (a remote site's link down, say). */
    java.util.Set<String> sitesDown() {
        return scheduler.sites().stream().filter(s -> !"UP".equals(s.agent())).map(SiteStatus::site)
                .collect(java.util.stream.Collectors.toSet());
    }

    void close() {
        scheduler.closeAllocation(allocation);
    }

    /** Ends the allocation as FAILED, with the cause. */
    void fail(String reason) {
        scheduler.failAllocation(allocation, reason);
    }
}
