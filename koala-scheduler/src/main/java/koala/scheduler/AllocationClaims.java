package koala.scheduler;

import java.util.List;
import koala.placement.GridView;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.state.JobEvent;

/** What allocations need of the scheduler, from its parts: pilots claimed and killed, the grid as an owner sees it. */
final class AllocationClaims implements Allocations.Claims {
    private final Scheduler scheduler;
    private final Claimer claimer;
    private final Pilots pilots;
    private final List<String> sites;

    /** @param sites the grid's sites, up or not */
    AllocationClaims(Scheduler scheduler, Claimer claimer, Pilots pilots, List<String> sites) {
        this.scheduler = scheduler;
        this.claimer = claimer;
        this.pilots = pilots;
        this.sites = List.copyOf(sites);
    }

    @Override
    public void submit(Job job, NodeClaim node) {
        claimer.submitPilot(job, node);
    }

    @Override
    public void kill(Job job, NodeClaim node) {
        pilots.kill(node, job.record().owner());
    }

    @Override
    public GridView view(String owner) {
        return scheduler.gridViewFor(owner);
    }

    @Override
    public GridView view(String owner, koala.placement.Resources perNode) {
        return scheduler.gridViewFor(owner, perNode);
    }

    @Override
    public boolean known(String site) {
        return sites.contains(site);
    }

    @Override
    public List<String> closedTo(String owner) {
        return scheduler.closedTo(owner);
    }

    @Override
    public String token() {
        return claimer.token();
    }

    @Override
    public String network(String site) {
        return pilots.network(site);
    }

    @Override
    public void fire(Job job, JobEvent event, String reason) {
        scheduler.fire(job, event, reason);
    }

    @Override
    public void prepare(String site, String url) {
        pilots.prepare(site, url);
    }
}
