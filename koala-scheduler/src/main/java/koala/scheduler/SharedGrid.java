package koala.scheduler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import koala.api.scheduler.GrowRequest;
import koala.placement.GridView;
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
    public koala.placement.Resources total(String site) {
        koala.placement.Resources total = koala.placement.Resources.NONE;
        for (SiteView s : scheduler.hostsView().sites()) {
            if (site == null || s.site().equals(site)) {
                total = total.plus(s.hosts().isEmpty() ? new koala.placement.Resources(s.totalNodes(), 0, 0)
                        : s.hosts().stream().map(koala.placement.HostView::total)
                        .reduce(koala.placement.Resources.NONE, koala.placement.Resources::plus));
            }
        }
        return total;
    }

    @Override
    public int room(String site, koala.placement.Resources perNode) {
        GridView hosts = scheduler.hostsView();
        return GrowPlacement.room(new GridView(hosts.sites().stream().filter(s -> site == null || s.site().equals(site))
                .toList(), hosts.files()), perNode);
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
