package koala.scheduler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import koala.api.scheduler.GrowRequest;
import koala.placement.SiteView;
import koala.scheduler.state.JobEvent;

/**
 * The grid as the arbiter of a shared grid ({@link Sharing}) sees it: the idle nodes, the framework instances
 * that hold workers, and their allocations, through which it ends and grants worker nodes.
 */
final class SharedGrid implements Sharing.Grid {
    private final Scheduler scheduler;
    private final Frameworks frameworks;
    private final Allocations allocations;
    private final Function<String, Map<String, String>> siteDefaults;

    /** @param siteDefaults a site's provisioning defaults (instances' weights and minimum shares) */
    SharedGrid(Scheduler scheduler, Frameworks frameworks, Allocations allocations,
               Function<String, Map<String, String>> siteDefaults) {
        this.scheduler = scheduler;
        this.frameworks = frameworks;
        this.allocations = allocations;
        this.siteDefaults = siteDefaults;
    }

    @Override
    public int freeNodes() {
        return scheduler.gridView().sites().stream().mapToInt(SiteView::idleNodes).sum();
    }

    @Override
    public int freeNodes(String site) {
        return scheduler.gridView().sites().stream().filter(s -> s.site().equals(site)).mapToInt(SiteView::idleNodes)
                .sum();
    }

    @Override
    public List<Sharing.HeldTenant> tenants() {
        return frameworks.sharing(allocations, siteDefaults);
    }

    @Override
    public String site(String node) {
        return allocations.siteOf(node);
    }

    @Override
    public void end(long instance, List<String> nodes, JobEvent event, String reason) {
        allocations.end(instance, nodes, event, reason);
    }

    @Override
    public Sharing.Granted grant(long instance, int nodes, List<String> ended, String reason,
                                 Optional<GrowRequest> asked, String site) {
        return allocations.grantWorkers(instance, nodes, ended, reason, asked, site);
    }

    @Override
    public void note(long instance, JobEvent event, String reason) {
        allocations.noteShare(instance, event, reason);
    }
}
