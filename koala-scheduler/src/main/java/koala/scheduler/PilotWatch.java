package koala.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.site.CellSnapshot;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.kis.SiteInfo;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Follows KOALA's pilots in the sites' snapshots: a node whose pilot has left its cell (killed with
 * qdel, its node lost, failed) without its launcher reporting an end is LOST. A pilot must be
 * missing from two snapshots taken after its SGE job id was known here — not after the submit was
 * asked for: starting a user's agent first takes seconds, and snapshots taken meanwhile cannot
 * show the pilot — so that a snapshot racing a submission loses nothing.
 */
final class PilotWatch {
    private static final Logger LOG = LogManager.getLogger(PilotWatch.class);

    private final koala.scheduler.kis.SiteInfos kis;
    private final java.time.InstantSource clock;
    private final koala.scheduler.metrics.GridEvents events;
    private final Map<String, Integer> missedSnapshots = new HashMap<>();
    /** When each node's pilot id was first seen here: only snapshots taken later can miss it. */
    private final Map<String, java.time.Instant> knownSince = new HashMap<>();

    PilotWatch(koala.scheduler.kis.SiteInfos kis, java.time.InstantSource clock,
               koala.scheduler.metrics.GridEvents events) {
        this.kis = kis;
        this.clock = clock;
        this.events = events;
    }

    /**
     * A held node whose pilot has left its cell without the launcher saying goodbye is lost. Returns
     * the nodes found lost now, by job.
     */
    List<Lost> followPilots(JobBook book) {
        List<Lost> lost = new java.util.ArrayList<>();
        java.util.Set<String> followed = new java.util.HashSet<>();
        for (Job job : book.all()) {
            for (NodeClaim node : job.heldNodes()) {
                if (node.pilot() != null && pilotGone(node)) {
                    LOG.warn("node {} lost: pilot {} left {}", node.id(), node.pilot(), node.site());
                    book.save(job, node.with(NodeState.LOST));
                    lost.add(new Lost(job, node));
                    if (node.state() == NodeState.SUBMITTED) {
                        events.claimFailed(node.site(), koala.scheduler.metrics.GridEvents.ClaimFailure.ENDED_EARLY);
                    } else {
                        events.nodeLost(node.site());
                    }
                } else if (node.pilot() != null) {
                    followed.add(node.id() + "/" + node.pilot());
                }
            }
        }
        missedSnapshots.keySet().retainAll(followed); // nodes that ended are followed no more
        knownSince.keySet().retainAll(followed);
        return lost;
    }

    /** A node found lost, and its job. */
    record Lost(Job job, NodeClaim node) {
    }

    private boolean pilotGone(NodeClaim node) {
        java.time.Instant known = knownSince.computeIfAbsent(node.id() + "/" + node.pilot(), k -> clock.instant());
        Optional<CellSnapshot> snapshot = kis.site(node.site()).filter(SiteInfo::up).map(SiteInfo::snapshot)
                .filter(s -> s.takenAt().isAfter(known.plusSeconds(1)));
        if (snapshot.isEmpty()) {
            return false;
        }
        boolean present = snapshot.get().jobs().stream().anyMatch(j -> j.id().equals(node.pilot()));
        int misses = present ? 0 : missedSnapshots.merge(node.id() + "/" + node.pilot(), 1, Integer::sum);
        if (present) {
            missedSnapshots.remove(node.id() + "/" + node.pilot());
        }
        return misses >= 2;
    }
}
