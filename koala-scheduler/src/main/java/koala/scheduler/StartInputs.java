package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import koala.api.scheduler.ShareReport;
import koala.api.site.CellJob;
import koala.api.site.CellSnapshot;
import koala.estimate.Arrivals;
import koala.estimate.GridSnapshot;
import koala.estimate.LocalLoad;
import koala.estimate.QueuedJob;
import koala.placement.GridView;
import koala.placement.PlacementPolicy;
import koala.provisioning.PolicyKind;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.kis.SiteInfo;

/**
 * What the start estimates read of the scheduler, on its loop: the grid host by host, the jobs and the queue
 * ({@link StartSnapshots}), each site's local users' load (sampled into {@link LocalLoads}), the last hour's
 * submissions as those to come, and the framework instances' idle workers with when their {@code t_idle} passes.
 */
final class StartInputs {
    /** What {@code t_idle} is taken to be when it is a factor of O_grow: the paper's O_grow on DAS-4. */
    static final Duration NOMINAL_GROW = Duration.ofSeconds(30);
    /** How many of the last hour's submissions stand for those to come. */
    private static final int RECENT = 50;

    /** What it reads of the scheduler, each on the loop. */
    interface Books {
        /** Every job in the books. */
        Collection<Job> jobs();

        /** The grid host by host, less what KOALA's books hold. */
        GridView hosts();

        Optional<SiteInfo> site(String name);

        PlacementPolicy policyFor(Job job);

        /** The running framework instances with their settings. */
        List<Frameworks.Running> instances();

        /** What an instance's runner last reported of its workers. */
        Optional<ShareReport> report(long instance);

        /** The tag in this scheduler's pilots' names. */
        String pilotTag();
    }

    private final List<String> siteNames;
    private final Books books;
    private final LocalLoads localLoads = new LocalLoads();

    StartInputs(List<String> siteNames, Books books) {
        this.siteNames = List.copyOf(siteNames);
        this.books = books;
    }

    /** The grid as a start estimate starts from at {@code now}, with {@code queued} as the queue. */
    GridSnapshot snapshot(Instant now, List<Job> queued) {
        Map<String, LocalLoad> local = new HashMap<>();
        for (String site : siteNames) {
            books.site(site).filter(SiteInfo::up).ifPresent(i -> {
                List<CellJob> jobs = localJobs(i.snapshot());
                int busy = jobs.stream().mapToInt(CellJob::slots).sum();
                localLoads.look(site, busy, jobs.stream().map(CellJob::id).collect(Collectors.toSet()), now);
                local.put(site, localLoads.load(site, busy));
            });
        }
        GridSnapshot s = StartSnapshots.of(now, books.hosts(), books.jobs(), queued, books::policyFor, local,
                idleWorkers(now));
        return s.withArrivals(arrivals(now));
    }

    /** The cell's own users' running jobs (and other schedulers' pilots). */
    private List<CellJob> localJobs(CellSnapshot snapshot) {
        String tag = books.pilotTag();
        return snapshot.jobs().stream().filter(j -> j.running() && !(j.koala() && NodeClaim.isPilotName(j.name(), tag)))
                .toList();
    }

    /** How many jobs are submitted in an hour, by the last hour's; and the last of them, as those to come will be. */
    private Arrivals arrivals(Instant now) {
        List<Job> lastHour = books.jobs().stream().filter(j -> !j.allocation() && j.description() != null
                && j.record().submittedAt().isAfter(now.minus(Duration.ofHours(1)))).toList();
        if (lastHour.isEmpty()) {
            return Arrivals.NONE;
        }
        List<QueuedJob> recent = StartSnapshots.queued(lastHour.subList(Math.max(0, lastHour.size() - RECENT),
                lastHour.size()), books::policyFor);
        return new Arrivals(lastHour.size(), recent);
    }

    /**
     * The framework instances' workers their runners last reported idle, each with when its {@code t_idle} passes:
     * the instances that give idle nodes back (all but Static).
     */
    private List<StartSnapshots.IdleNode> idleWorkers(Instant now) {
        List<StartSnapshots.IdleNode> idle = new ArrayList<>();
        for (Frameworks.Running r : books.instances()) {
            if (r.settings().policy() == PolicyKind.STATIC) {
                continue;
            }
            Duration tIdle = r.settings().tIdle().after(NOMINAL_GROW);
            Job allocation = r.allocation();
            books.report(allocation.id()).ifPresent(report -> report.workers().stream()
                    .filter(w -> !w.busy() && w.idleSince() != null).forEach(w -> {
                        NodeClaim n = allocation.node(w.node());
                        if (n != null && n.state().held()) {
                            Instant at = w.idleSince().plus(tIdle);
                            idle.add(new StartSnapshots.IdleNode(allocation.id(), n,
                                    NodeNeeds.perNode(allocation.description(), n), at.isBefore(now) ? now : at));
                        }
                    }));
        }
        return idle;
    }
}
