package koala.scheduler;

import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import koala.placement.Assignment;
import koala.placement.ComponentNeed;
import koala.placement.PlacementDecision;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicy;
import koala.scheduler.claiming.ClaimRules;
import koala.scheduler.claiming.ClaimVerdict;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.metrics.GridEvents;
import koala.scheduler.metrics.GridEvents.ClaimFailure;
import koala.scheduler.state.JobEvent;
import koala.scheduler.state.JobState;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Claims a placed job's nodes with pilot jobs and follows the claims with the {@link ClaimRules}:
 * the job starts when every node has arrived; a part whose pilots are late (or ended before they
 * started) is released and placed again, elsewhere when it is not pinned; too many failures send
 * the job back to the queue.
 */
final class Claimer {
    private static final Logger LOG = LogManager.getLogger(Claimer.class);

    /** The job transitions claiming causes. */
    interface Lifecycle {
        void fire(Job job, JobEvent event, String reason);
    }

    private final JobBook book;
    private final Pilots pilots;
    private final Submissions submissions;
    private final ClaimRules rules;
    private final int maxFailures;
    private final Function<Job, PlacementPolicy> policyFor;
    private final java.util.function.Function<Job, GridView> gridView;
    private final Lifecycle lifecycle;
    private final InstantSource clock;
    private final GridEvents events;
    /** Per site, what a node that asks no memory claims per core there (0: none; {@link PilotClaim}). */
    private final java.util.function.ToLongFunction<String> memoryPerCore;
    private final SecureRandom random = new SecureRandom();

    Claimer(JobBook book, Pilots pilots, Submissions submissions, ClaimRules rules, Function<Job, PlacementPolicy> policyFor,
            java.util.function.Function<Job, GridView> gridView, Lifecycle lifecycle, InstantSource clock,
            GridEvents events, java.util.function.ToLongFunction<String> memoryPerCore) {
        this.memoryPerCore = memoryPerCore;
        this.book = book;
        this.pilots = pilots;
        this.submissions = submissions;
        this.rules = rules;
        this.maxFailures = rules.maxFailures();
        this.policyFor = policyFor;
        this.gridView = gridView;
        this.lifecycle = lifecycle;
        this.clock = clock;
        this.events = events;
    }

    /** Creates the job's nodes for the assignments and submits their pilots. */
    void claim(Job job, List<Assignment> assignments) {
        Map<Integer, Integer> ranks = new HashMap<>();
        for (Assignment a : assignments) {
            for (int i = 0; i < a.nodes(); i++) {
                int rank = ranks.merge(a.component(), 1, Integer::sum) - 1;
                String id = job.id() + "." + a.component() + "." + rank;
                NodeClaim existing = job.node(id);
                NodeClaim node = existing == null
                        ? new NodeClaim(id, job.id(), a.component(), rank, a.site(), NodeState.SUBMITTED, null,
                                a.host(i), null, token(), null, 1)
                        : existing.movedTo(a.site(), a.host(i), token());
                submitPilot(job, node);
            }
        }
    }

    /**
     * Records the node, then has its pilot submitted off the loop. The claim's clock starts now, so a
     * site slow to accept the pilot counts against the claim time-out like one slow to start it.
     */
    void submitPilot(Job job, NodeClaim node) {
        NodeClaim asked = node.submitted(null, clock.instant());
        book.save(job, asked); // recorded before it exists in SGE, so a crash in between leaves a trace
        events.claimBegun(asked.site());
        submissions.submit(asked, job.record().owner(), PilotClaim.of(job.description(), asked,
                        memoryPerCore.applyAsLong(asked.site())),
                outcome -> submitted(job.id(), asked, outcome));
    }

    /** Back on the loop: the site's answer to the pilot of claim {@code asked}. */
    private void submitted(long jobId, NodeClaim asked, Submissions.Outcome outcome) {
        Job job = book.find(jobId).orElse(null);
        NodeClaim now = job == null ? null : job.node(asked.id());
        boolean same = now != null && now.token().equals(asked.token());
        if (!outcome.submitted()) {
            LOG.warn("pilot for node {} on {} refused: {}", asked.id(), asked.site(), outcome.failure());
            events.claimFailed(asked.site(), ClaimFailure.REFUSED);
            if (same && now.state() == NodeState.SUBMITTED) {
                book.save(job, now.with(NodeState.LOST));
                // the site's words, which "refused" alone would hide (e.g. SGE's "no suitable queues")
                book.note(job, JobEvent.PILOT_REFUSED, "pilot of node " + asked.id() + " refused by " + asked.site()
                        + ": " + outcome.failure());
            }
            return;
        }
        if (same) {
            book.save(job, now.withPilot(outcome.pilot()));
        }
        if (!same || !now.state().held()) {
            // released (cancelled, claimed anew) while its submit was on its way: its kill found no pilot
            pilots.kill(asked.site(), outcome.pilot(), job == null ? null : job.record().owner(), "node " + asked.id());
        }
    }

    void check(Job job) {
        if (job.state() != JobState.CLAIMING) {
            return;
        }
        List<NodeClaim> claiming = job.heldNodes();
        List<NodeClaim> lost = job.nodes().stream().filter(n -> n.state() == NodeState.LOST).toList();
        ClaimVerdict verdict = lost.isEmpty() ? rules.check(claiming, job.record().claimFailures(), clock.instant())
                : lostVerdict(job, lost);
        if (lost.isEmpty()) {
            countTimeouts(claiming, verdict); // a lost pilot's failure was counted when it was found lost
        }
        if (verdict instanceof ClaimVerdict.AllClaimed) {
            lifecycle.fire(job, JobEvent.ALL_CLAIMED, "all " + claiming.size() + " nodes claimed");
        } else if (verdict instanceof ClaimVerdict.Waiting waiting) {
            book.update(job, job.record().waiting(waiting.reason()));
        } else if (verdict instanceof ClaimVerdict.Replace replace) {
            replace(job, replace);
        } else if (verdict instanceof ClaimVerdict.Requeue requeue) {
            book.update(job, job.record().claimFailed());
            lifecycle.fire(job, JobEvent.CLAIMS_FAILED, requeue.reason());
        }
    }

    /**
     * The claims that fail because pilots did not start in time: the nodes still waiting in the late
     * parts that are placed again, or every node still waiting when the job goes back to the queue.
     */
    private void countTimeouts(List<NodeClaim> claiming, ClaimVerdict verdict) {
        java.util.function.Predicate<NodeClaim> failed;
        if (verdict instanceof ClaimVerdict.Replace replace) {
            failed = n -> replace.parts().stream().anyMatch(p -> p.component() == n.component()
                    && p.site().equals(n.site()));
        } else if (verdict instanceof ClaimVerdict.Requeue) {
            failed = n -> true;
        } else {
            return;
        }
        claiming.stream().filter(n -> n.state() == NodeState.SUBMITTED).filter(failed)
                .forEach(n -> events.claimFailed(n.site(), ClaimFailure.TIMED_OUT));
    }

    /** A pilot that ended before its node arrived counts as a failed claim of its part. */
    private ClaimVerdict lostVerdict(Job job, List<NodeClaim> lost) {
        List<ClaimVerdict.Part> parts = lost.stream().map(n -> new ClaimVerdict.Part(n.component(), n.site(), 0))
                .distinct().toList();
        NodeClaim first = lost.get(0);
        // a node lost with no pilot id was refused at submission (its reason is noted above it)
        String why = "pilot of node " + first.id() + " on " + first.site()
                + (first.pilot() == null ? " was refused by the site" : " ended before it started");
        return job.record().claimFailures() + 1 >= maxFailures
                ? new ClaimVerdict.Requeue(why + "; claims failed " + (job.record().claimFailures() + 1)
                        + " times, back to the queue")
                : new ClaimVerdict.Replace(parts, why + "; placing again");
    }

    /** Incremental claiming: release the late parts and place just those again. */
    private void replace(Job job, ClaimVerdict.Replace replace) {
        book.update(job, job.record().claimFailed());
        LOG.info("job {}: {}", job.id(), replace.reason());
        List<NodeClaim> moving = new ArrayList<>();
        for (ClaimVerdict.Part part : replace.parts()) {
            job.nodes().stream().filter(n -> n.component() == part.component() && n.site().equals(part.site())
                    && n.state() != NodeState.RELEASED).forEach(n -> {
                        pilots.kill(n, job.record().owner());
                        moving.add(n);
                        book.save(job, n.with(NodeState.RELEASED));
                    });
        }
        List<ComponentNeed> needs = new ArrayList<>();
        Map<Integer, Long> sizes = moving.stream().collect(Collectors.groupingBy(NodeClaim::component, TreeMap::new,
                Collectors.counting()));
        sizes.forEach((component, n) -> needs.add(NodeNeeds.component(job.description().components().get(component),
                n.intValue())));
        PlacementDecision decision = policyFor.apply(job).place(new JobNeed(Long.toString(job.id()), needs, false),
                withoutSites(gridView.apply(job), replace.parts().stream().map(ClaimVerdict.Part::site).toList(), needs));
        if (decision instanceof PlacementDecision.Placed placed) {
            book.note(job, JobEvent.REPLACED, replace.reason() + ": "
                    + Scheduler.describe(placed.assignments()));
            reclaim(job, moving, placed.assignments());
        } else {
            lifecycle.fire(job, JobEvent.CLAIMS_FAILED, replace.reason() + ", but nowhere to go now");
        }
    }

    /**
     * The view without the sites whose claims just failed, so that a component the user did not pin
     * goes elsewhere; a pinned component can only try its own site again.
     */
    private static GridView withoutSites(GridView view, List<String> failed, List<ComponentNeed> needs) {
        if (needs.stream().anyMatch(n -> n.fixedSite() != null)) {
            return view;
        }
        return new GridView(view.sites().stream().filter(s -> !failed.contains(s.site())).toList(), view.files());
    }

    private void reclaim(Job job, List<NodeClaim> moving, List<Assignment> assignments) {
        int next = 0;
        List<NodeClaim> ordered = moving.stream().sorted((a, b) -> a.id().compareTo(b.id())).toList();
        for (Assignment a : assignments) {
            for (int i = 0; i < a.nodes(); i++) {
                submitPilot(job, ordered.get(next++).movedTo(a.site(), a.host(i), token()));
            }
        }
    }

    String token() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
