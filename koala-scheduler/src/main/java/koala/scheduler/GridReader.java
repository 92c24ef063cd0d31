package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import koala.api.scheduler.SiteStatus;
import koala.arbitration.Tenant;
import koala.provisioning.Worker;
import koala.scheduler.metrics.GridReading;
import koala.scheduler.state.JobState;

/**
 * Reads the grid into a {@link GridReading} at the end of each round, on the loop: users' jobs by
 * state, the queue, the sites as {@code koala sites} shows them and each running instance as
 * sharing sees it. It keeps two things between rounds: when each site's agent was last heard from
 * with its cell's state (the information service keeps only its last poll, failed or not), and
 * each instance's idle node-seconds: each round adds, for every worker its runner last reported
 * idle, the time since it went idle or since the last round, whichever is later.
 */
final class GridReader {
    private final Map<Long, Double> idleSeconds = new HashMap<>();
    private final Map<String, Instant> heard = new HashMap<>();
    private Instant last;

    /** What the reading is made of, as the scheduler holds it at the end of a round. */
    record Grid(Collection<Job> jobs, PlacementQueue queue, List<SiteStatus> sites, List<Frameworks.Running> instances,
                Sharing sharing, Allocations allocations) {
    }

    GridReading read(Grid grid, Instant now) {
        Map<JobState, Integer> jobs = new EnumMap<>(JobState.class);
        for (Job job : grid.jobs()) {
            if (!job.allocation() && !job.state().ended()) {
                jobs.merge(job.state(), 1, Integer::sum);
            }
        }
        List<GridReading.Site> sites = grid.sites().stream().map(this::site).toList();
        List<GridReading.Instance> instances = new ArrayList<>();
        for (Frameworks.Running r : grid.instances()) {
            instances.add(instance(r, grid, now));
        }
        idleSeconds.keySet().retainAll(instances.stream().map(GridReading.Instance::id).toList());
        last = now;
        return new GridReading(now, jobs, grid.queue().highSize(), grid.queue().lowSize(), sites, instances,
                grid.sharing().settings().rule().toString());
    }

    private GridReading.Site site(SiteStatus s) {
        boolean up = "UP".equals(s.agent());
        if (up && s.seenAt() != null) {
            heard.put(s.site(), s.seenAt());
        }
        return new GridReading.Site(s.site(), up, s.total(), s.idle(), s.koala(), s.others(), s.claiming(),
                heard.get(s.site()), s.resources());
    }

    private GridReading.Instance instance(Frameworks.Running r, Grid grid, Instant now) {
        long id = r.record().id();
        Sharing.HeldTenant held = new Sharing.HeldTenant(id, r.settings().weight(), r.settings().minShare(),
                grid.allocations().workers(r.allocation()));
        Sharing.Standing standing = grid.sharing().standing(held, now);
        Tenant tenant = standing.tenant();
        int busy = (int) tenant.workers().stream().filter(Worker::busy).count();
        OptionalDouble cpu = tenant.workers().stream().mapToDouble(w -> w.cpuPercent() / 100).average();
        double idle = idleSeconds.merge(id, idleSince(tenant.workers(), now), Double::sum);
        return new GridReading.Instance(id, r.record().name(), r.allocation().record().owner(), r.record().policy(),
                held.workers().size(), busy, r.settings().fMax(), cpu, idle, standing.share(), standing.fairShare(),
                tenant.performance(), grid.sharing().rejectRate(id));
    }

    /** The idle worker-seconds since the last round (none before the first: nothing was watched). */
    private double idleSince(List<Worker> workers, Instant now) {
        if (last == null) {
            return 0;
        }
        double seconds = 0;
        for (Worker w : workers) {
            if (!w.busy() && w.idleSince() != null) {
                Instant from = w.idleSince().isAfter(last) ? w.idleSince() : last;
                seconds += Math.max(0, Duration.between(from, now).toNanos() / 1e9);
            }
        }
        return seconds;
    }
}
