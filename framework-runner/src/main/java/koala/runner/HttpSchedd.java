package koala.runner;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import koala.common.api.AllocationRequest;
import koala.common.api.FrameworkRegistration;
import koala.common.api.GrowRequest;
import koala.common.api.GrowResult;
import koala.common.api.JobView;
import koala.common.api.MasterAddress;
import koala.common.api.ReleaseRequest;
import koala.common.api.SchedulerClient;
import koala.common.api.ShareOrders;
import koala.common.api.ShareReport;
import koala.common.api.SiteStatus;

/**
 * {@link Schedd} over the scheduler's HTTP API ({@link SchedulerClient}): each call within the
 * client's time-out (30 s), and the named ones (opening the allocation, a grow) tried again under
 * the same name while the scheduler is unreachable, for at most {@link SchedulerClient#RETRY_FOR}.
 */
final class HttpSchedd implements Schedd {
    private final SchedulerClient scheduler;
    private volatile long allocation = -1;

    HttpSchedd(SchedulerClient scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public long open(String name, String jdfFile, String jdf, String policy, Map<String, String> parameters,
                     String runner, LongFunction<String> stateFile) {
        long id = scheduler.allocate(new AllocationRequest(name)).id();
        allocation = id;
        scheduler.register(new FrameworkRegistration(id, name, jdfFile, jdf, policy, parameters, runner,
                stateFile.apply(id)));
        return id;
    }

    @Override
    public void adopt(long id) {
        allocation = id;
    }

    @Override
    public long instance() {
        return allocation;
    }

    @Override
    public GrowResult grow(GrowRequest request) {
        return scheduler.grow(allocation, request);
    }

    @Override
    public void release(List<String> nodes, String reason) {
        scheduler.release(allocation, new ReleaseRequest(nodes, reason));
    }

    @Override
    public void master(String node, String address) {
        scheduler.master(allocation, new MasterAddress(node, address));
    }

    @Override
    public JobView allocation() {
        return scheduler.heldNow(allocation);
    }

    @Override
    public ShareOrders report(ShareReport report) {
        return scheduler.report(allocation, report);
    }

    @Override
    public int idleNodes() {
        return scheduler.sites().stream().mapToInt(SiteStatus::idle).sum();
    }

    @Override
    public Set<String> sitesDown() {
        return scheduler.sites().stream().filter(s -> !"UP".equals(s.agent())).map(SiteStatus::site)
                .collect(Collectors.toSet());
    }

    @Override
    public void close() {
        scheduler.closeAllocation(allocation);
    }

    @Override
    public void fail(String reason) {
        scheduler.failAllocation(allocation, reason);
    }
}
