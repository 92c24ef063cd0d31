package koala.scheduler;

import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What a restarted scheduler does before it carries on: reload every job from the store, adopt
 * the pilots it had submitted but not yet recorded (found in SGE by name), and name the pilots no
 * live job owns, for killing.
 */
final class Recovery {
    private static final Logger LOG = LogManager.getLogger(Recovery.class);

    private final JobBook book;
    private final Store store;
    private final koala.scheduler.kis.SiteInfos kis;
    private final PlacementQueue queue;
    private final BiConsumer<Job, NodeClaim> resubmit;
    private final InstantSource clock;

    Recovery(JobBook book, Store store, koala.scheduler.kis.SiteInfos kis, PlacementQueue queue,
             BiConsumer<Job, NodeClaim> resubmit, InstantSource clock) {
        this.book = book;
        this.store = store;
        this.kis = kis;
        this.queue = queue;
        this.resubmit = resubmit;
        this.clock = clock;
    }

    /**
     * Loads the stored jobs after a restart: the live ones, which carry on where they were, and those
     * that ended within {@code keepEnded}; older ones stay in the store.
     */
    void reload(java.time.Duration keepEnded) {
        for (koala.scheduler.storage.StoredJob stored : store.reload(clock.instant().minus(keepEnded))) {
            Job job = book.read(stored);
            book.restore(job);
            if (stored.record().state() == JobState.QUEUED) {
                queue.add(job.id(), stored.record().priority());
            }
        }
        LOG.info("reloaded {} jobs ({} live)", book.all().size(),
                book.all().stream().filter(j -> !j.state().ended()).count());
    }

    private final java.util.Map<String, List<String>> lastOrphans = new java.util.HashMap<>();

    /** Nodes recorded but whose pilot was never confirmed: adopt the pilot SGE has by name, or claim again. */
    void adoptUnconfirmedPilots() {
        for (Job job : book.all()) {
            for (NodeClaim node : job.heldNodes()) {
                if (node.pilot() == null && !job.state().ended()) {
                    Optional<String> pilot = kis.site(node.site()).filter(SiteInfo::up)
                            .flatMap(i -> i.snapshot().jobs().stream().filter(j -> node.pilotName(store.pilotTag()).equals(j.name()))
                                    .map(j -> j.id()).findFirst());
                    if (pilot.isPresent()) {
                        book.save(job, node.submitted(pilot.get(), clock.instant()));
                    } else {
                        resubmit.accept(job, node);
                    }
                }
            }
        }
    }

    /**
     * Pilots of this scheduler's in the site's cell that no live node owns, by id or by name (a node
     * whose submit has not yet told it its pilot's id): left by a crash, or by a kill the agent
     * refused. Kill them.
     */
    List<koala.api.site.CellJob> orphanPilots(String site) {
        Set<String> owned = new HashSet<>();
        book.all().forEach(j -> j.heldNodes().stream().filter(n -> n.site().equals(site)).forEach(n -> {
            owned.add(n.pilotName(store.pilotTag()));
            if (n.pilot() != null) {
                owned.add(n.pilot());
            }
        }));
        return kis.site(site).filter(SiteInfo::up).map(i -> i.snapshot().jobs().stream()
                .filter(j -> j.koala() && NodeClaim.isPilotName(j.name(), store.pilotTag()))
                .filter(j -> !owned.contains(j.id()) && !owned.contains(j.name()))
                .toList()).orElse(List.of());
    }

    /**
     * The orphans to kill now: those found in this sweep and the one before, so that a pilot whose
     * node was saved a moment after the snapshot was taken is never taken for one.
     */
    List<koala.api.site.CellJob> orphansSeenTwice(String site) {
        List<koala.api.site.CellJob> now = orphanPilots(site);
        List<String> before = lastOrphans.getOrDefault(site, List.of());
        lastOrphans.put(site, now.stream().map(koala.api.site.CellJob::id).toList());
        return now.stream().filter(j -> before.contains(j.id())).toList();
    }
}
