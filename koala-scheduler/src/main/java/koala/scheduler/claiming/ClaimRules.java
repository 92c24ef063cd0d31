package koala.scheduler.claiming;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * KOALA's Incremental Claiming Policy, as pure rules. SGE has no advance reservation, so KOALA
 * claims a node by getting a pilot job started on it; a pilot may wait in the site's queue while
 * local users' jobs take the nodes the placement counted on. A co-allocated job starts only when
 * every node of every component has arrived. The nodes of a component on a site whose pilots have
 * not all arrived within {@code timeout} are released and that part is placed again; when claims
 * have failed {@code maxFailures} times, the whole job goes back to the placement queue.
 */
public final class ClaimRules {
    private final Duration timeout;
    private final int maxFailures;

    public ClaimRules(Duration timeout, int maxFailures) {
        this.timeout = timeout;
        this.maxFailures = maxFailures;
    }

    public int maxFailures() {
        return maxFailures;
    }

    /**
     * @param nodes         the job's nodes being claimed (released ones left out)
     * @param failuresSoFar claim failures of this job since it was last placed
     */
    public ClaimVerdict check(List<NodeClaim> nodes, int failuresSoFar, Instant now) {
        long arrived = nodes.stream().filter(n -> n.state() == NodeState.ARRIVED).count();
        if (arrived == nodes.size()) {
            return new ClaimVerdict.AllClaimed();
        }
        List<ClaimVerdict.Part> late = lateParts(nodes, now);
        if (late.isEmpty()) {
            return new ClaimVerdict.Waiting("claiming nodes: " + arrived + " of " + nodes.size() + " arrived");
        }
        String why = late.stream().map(p -> "component " + p.component() + " on " + p.site())
                .collect(Collectors.joining(", ")) + ": not all pilots started within " + timeout.toSeconds() + " s";
        if (failuresSoFar + 1 >= maxFailures) {
            return new ClaimVerdict.Requeue(why + "; claims failed " + (failuresSoFar + 1) + " times, back to the queue");
        }
        return new ClaimVerdict.Replace(late, why + "; placing again");
    }

    /** Parts (component, site) with a node still waiting past the time-out, in component order. */
    private List<ClaimVerdict.Part> lateParts(List<NodeClaim> nodes, Instant now) {
        Map<String, List<NodeClaim>> parts = new TreeMap<>();
        nodes.forEach(n -> parts.computeIfAbsent(String.format("%06d/%s", n.component(), n.site()), k -> new ArrayList<>())
                .add(n));
        List<ClaimVerdict.Part> late = new ArrayList<>();
        parts.values().forEach(part -> {
            boolean overdue = part.stream().anyMatch(n -> n.state() == NodeState.SUBMITTED && n.submittedAt() != null
                    && !now.isBefore(n.submittedAt().plus(timeout)));
            if (overdue) {
                late.add(new ClaimVerdict.Part(part.get(0).component(), part.get(0).site(), part.size()));
            }
        });
        return late;
    }
}
