package koala.jdf;

import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks against the grid's clusters, when they are known: a job that could never be placed, even on
 * an empty grid, is refused at once instead of waiting in the placement queue for ever.
 *
 * <ul>
 *   <li>a fixed component names a cluster of the grid, and fits in it;</li>
 *   <li>any other component fits in the largest cluster; a flexible job, which KOALA may split, fits
 *       in the whole grid;</li>
 *   <li>the components pinned to one cluster fit in it together, and the whole job fits in the grid
 *       (checked when every component fits on its own);</li>
 *   <li>an MPI job's components are not pinned to clusters on different networks (when the networks
 *       are known): the nodes of one MPI world must reach each other, and placement keeps its
 *       components on one network, so such a job could never start.</li>
 * </ul>
 */
final class ClusterChecks {
    private final JobAssembler.Assembled job;
    private final ClusterCatalog clusters;
    private final Problems problems;
    private boolean failed;

    private ClusterChecks(JobAssembler.Assembled job, ClusterCatalog clusters, Problems problems) {
        this.job = job;
        this.clusters = clusters;
        this.problems = problems;
    }

    static void check(JobAssembler.Assembled job, ClusterCatalog clusters, Problems problems) {
        if (!clusters.known() || job.jobType() == null) {
            return;
        }
        ClusterChecks checks = new ClusterChecks(job, clusters, problems);
        job.drafts().forEach(checks::component);
        if (!checks.failed && !job.is("flexible")) {
            checks.together();
        }
        if (!checks.failed && job.job().mpi()) {
            checks.oneNetwork();
        }
    }

    private void component(Draft draft) {
        Optional<String> cluster = draft.value(Attribute.RESOURCE_MANAGER_CONTACT, String.class);
        if (cluster.isPresent() && clusters.nodesOf(cluster.get()).isEmpty()) {
            fail(draft.where(Attribute.RESOURCE_MANAGER_CONTACT), "resourceManagerContact: no cluster '"
                    + cluster.get() + "' (clusters: " + String.join(", ", sortedNames()) + ")");
            return;
        }
        int count = draft.value(Attribute.COUNT, Integer.class).orElse(1);
        SourcePosition at = draft.where(Attribute.COUNT);
        if (job.is("flexible")) {
            if (count > clusters.total()) {
                fail(at, "count " + count + " is more than the grid has (" + grid() + ")");
            }
        } else if (cluster.isPresent()) {
            int size = clusters.nodesOf(cluster.get()).orElseThrow();
            if (count > size) {
                fail(at, "count " + count + " is more than cluster " + cluster.get() + " has (" + nodes(size) + ")");
            }
        } else if (count > clusters.largest()) {
            fail(at, "count " + count + " is more than any cluster has (largest: " + largest() + " with "
                    + nodes(clusters.largest()) + ")");
        }
    }

    /** Components pinned to one cluster fit in it together; the whole job fits in the grid. */
    private void together() {
        Map<String, Integer> pinned = new LinkedHashMap<>();
        Set<String> reported = new HashSet<>();
        for (Draft draft : job.drafts()) {
            Optional<String> cluster = draft.value(Attribute.RESOURCE_MANAGER_CONTACT, String.class);
            if (cluster.isEmpty()) {
                continue;
            }
            int sum = pinned.merge(cluster.get(), draft.value(Attribute.COUNT, Integer.class).orElse(1), Integer::sum);
            int size = clusters.nodesOf(cluster.get()).orElseThrow();
            if (sum > size && reported.add(cluster.get())) {
                fail(draft.where(Attribute.COUNT), "the components pinned to " + cluster.get() + " need " + sum
                        + " nodes together; " + cluster.get() + " has " + nodes(size));
            }
        }
        int total = job.job().totalNodes();
        if (!failed && total > clusters.total()) {
            fail(job.job().position(), "the job's " + nodes(total) + " are more than the grid has (" + grid() + ")");
        }
    }

    /**
     * Each component pinned to a cluster on another network than the first pinned one's is an error at
     * its {@code resourceManagerContact}, naming both components, their clusters and networks.
     */
    private void oneNetwork() {
        int first = -1;
        String firstCluster = null;
        String firstNetwork = null;
        for (int i = 0; i < job.drafts().size(); i++) {
            Draft draft = job.drafts().get(i);
            Optional<String> cluster = draft.value(Attribute.RESOURCE_MANAGER_CONTACT, String.class);
            Optional<String> network = cluster.flatMap(clusters::networkOf);
            if (network.isEmpty()) {
                continue;
            }
            if (first < 0) {
                first = i;
                firstCluster = cluster.get();
                firstNetwork = network.get();
            } else if (!network.get().equals(firstNetwork)) {
                fail(draft.where(Attribute.RESOURCE_MANAGER_CONTACT), "runner = mpi: component " + (i + 1)
                        + " is pinned to " + cluster.get() + " " + on(cluster.get(), network.get()) + ", component "
                        + (first + 1) + " to " + firstCluster + " " + on(firstCluster, firstNetwork)
                        + ": the nodes of one MPI world must reach each other, so its components stay on one network "
                        + "and this job could never start; pin them to clusters of one network, or leave KOALA to "
                        + "choose");
            }
        }
    }

    /** "on the grid's network" or "on fs2's private network". */
    private static String on(String cluster, String network) {
        return network.equals(cluster) ? "on " + cluster + "'s private network" : "on network " + network
                + (network.equals("grid") ? " (the grid's own)" : "");
    }

    private void fail(SourcePosition at, String message) {
        problems.add(at, message);
        failed = true;
    }

    private Iterable<String> sortedNames() {
        return clusters.names().stream().sorted().toList();
    }

    /** The largest cluster; on a tie, the first by name. */
    private String largest() {
        return clusters.names().stream().sorted()
                .max(Comparator.comparingInt((String n) -> clusters.nodesOf(n).orElse(0))
                        .thenComparing(Comparator.<String>naturalOrder().reversed()))
                .orElseThrow();
    }

    private String grid() {
        int n = clusters.names().size();
        return nodes(clusters.total()) + " on " + n + (n == 1 ? " cluster" : " clusters");
    }

    private static String nodes(int n) {
        return n + (n == 1 ? " node" : " nodes");
    }
}
