package koala.runner;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.RunnerGeneration;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.SiteStatus;
import koala.http.ApiException;
import koala.http.FailureStatus;

/**
 * {@link Schedd} over the scheduler's HTTP API ({@link SchedulerClient}): each call within the
 * client's time-out (30 s), and the named ones (opening the allocation, a grow) tried again under
 * the same name while the scheduler is unreachable, for at most {@link SchedulerClient#RETRY_FOR}.
 * The one place the runner meets HTTP statuses: a refusal or silence leaves here as the domain
 * failure it reports ({@link FailureStatus#failureOf}).
 */
final class HttpSchedd implements Schedd {
    /** The scheduler as this runner calls it: once it holds its instance, with its generation on every call. */
    private volatile SchedulerClient scheduler;
    private final long generation;
    private volatile long allocation = -1;

    /** A runner that opens its instance: of the {@linkplain RunnerGeneration#FIRST first generation}. */
    HttpSchedd(SchedulerClient scheduler) {
        this(scheduler, RunnerGeneration.FIRST);
    }

    /**
     * @param generation this runner's {@link RunnerGeneration}, sent with every call once it holds its
     *                   instance; 0 for a runner kept from before generations were, which sends none
     */
    HttpSchedd(SchedulerClient scheduler, long generation) {
        this.scheduler = scheduler;
        this.generation = generation;
    }

    private void holding(long id) {
        allocation = id;
        if (generation > 0) {
            scheduler = scheduler.asRunner(generation);
        }
    }

    @Override
    public long open(String name, String jdfFile, String jdf, String policy, Map<String, String> parameters,
                     String runner, LongFunction<String> stateFile, List<koala.api.scheduler.RolePlacement> roles) {
        long id = answer(() -> scheduler.allocate(new AllocationRequest(name, null, roles)).id());
        holding(id);
        told(() -> scheduler.register(new FrameworkRegistration(id, name, jdfFile, jdf, policy, parameters, runner,
                stateFile.apply(id), thisHost())));
        return id;
    }

    /** This host's name, as the scheduler names its own ({@code InetAddress.getLocalHost()}); null if it has none. */
    static String thisHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    @Override
    public void adopt(long id) {
        holding(id);
    }

    @Override
    public long instance() {
        return allocation;
    }

    @Override
    public GrowResult grow(GrowRequest request) {
        return answer(() -> scheduler.grow(allocation, request));
    }

    @Override
    public void release(List<String> nodes, String reason) {
        told(() -> scheduler.release(allocation, new ReleaseRequest(nodes, reason)));
    }

    @Override
    public void master(String node, String address) {
        told(() -> scheduler.master(allocation, new MasterAddress(node, address)));
    }

    @Override
    public JobView allocation() {
        return answer(() -> scheduler.heldNow(allocation));
    }

    @Override
    public ShareOrders report(ShareReport report) {
        return answer(() -> scheduler.report(allocation, report));
    }

    @Override
    public int idleNodes() {
        return answer(() -> scheduler.sites().stream().mapToInt(SiteStatus::idle).sum());
    }

    @Override
    public Set<String> sitesDown() {
        return answer(() -> scheduler.sites().stream().filter(s -> !"UP".equals(s.agent())).map(SiteStatus::site)
                .collect(Collectors.toSet()));
    }

    @Override
    public void close() {
        told(() -> scheduler.closeAllocation(allocation));
    }

    @Override
    public void fail(String reason) {
        told(() -> scheduler.failAllocation(allocation, reason));
    }

    /**
     * The scheduler's answer; its refusal or silence as the domain failure it reports (a refusal of a
     * runner that was replaced among them: {@link RunnerGeneration#replaced}).
     */
    private static <T> T answer(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (ApiException e) {
            throw FailureStatus.failureOf(e);
        }
    }

    private static void told(Runnable call) {
        answer(() -> {
            call.run();
            return null;
        });
    }
}
