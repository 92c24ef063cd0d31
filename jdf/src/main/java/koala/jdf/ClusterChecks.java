package koala.jdf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

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
 *   <li>one node of each component fits on one host it may go to (when the hosts are known,
 *       {@link ClusterCatalog#hosts()}): its {@code cores}, {@code memory} and {@code gpus} each, and
 *       all of them on one host; a component pinned to a cluster counts only that cluster's hosts;</li>
 *   <li>the nodes of a component that asks for more than the defaults fit on the hosts together, as
 *       many to a host as fit on it: of its cluster when pinned, of the whole grid when flexible, else
 *       of some one cluster;</li>
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
        for (int i = 0; i < job.drafts().size(); i++) {
            boolean counted = checks.component(job.drafts().get(i));
            checks.resources(i, job.drafts().get(i), counted);
        }
        if (!checks.failed && !job.is("flexible")) {
            checks.together();
        }
        if (!checks.failed && job.job().mpi()) {
            checks.oneNetwork();
        }
    }

    /** Whether the component's count fits (and its cluster, if it names one, is known). */
    private boolean component(Draft draft) {
        Optional<String> cluster = draft.value(Attribute.RESOURCE_MANAGER_CONTACT, String.class);
        if (cluster.isPresent() && clusters.nodesOf(cluster.get()).isEmpty()) {
            fail(draft.where(Attribute.RESOURCE_MANAGER_CONTACT), "resourceManagerContact: no cluster '"
                    + cluster.get() + "' (clusters: " + String.join(", ", sortedNames()) + ")");
            return false;
        }
        int count = draft.value(Attribute.COUNT, Integer.class).orElse(1);
        SourcePosition at = draft.where(Attribute.COUNT);
        if (job.is("flexible")) {
            if (count > clusters.total()) {
                fail(at, "count " + count + " is more than the grid has (" + grid() + ")");
                return false;
            }
        } else if (cluster.isPresent()) {
            int size = clusters.nodesOf(cluster.get()).orElseThrow();
            if (count > size) {
                fail(at, "count " + count + " is more than cluster " + cluster.get() + " has (" + nodes(size) + ")");
                return false;
            }
        } else if (count > clusters.largest()) {
            fail(at, "count " + count + " is more than any cluster has (largest: " + largest() + " with "
                    + nodes(clusters.largest()) + ")");
            return false;
        }
        return true;
    }

    /**
     * One node of the component fits on some host it may go to. Each of cores, memory and GPUs is
     * checked on its own, so that the message names the figure that is too large and the largest host;
     * when each fits somewhere but no host has all of them, that is said at the first one written. When
     * a node fits and the count is within the clusters' node counts, the nodes must fit on the hosts.
     */
    private void resources(int index, Draft draft, boolean counted) {
        Optional<String> cluster = draft.value(Attribute.RESOURCE_MANAGER_CONTACT, String.class);
        List<String> sites = cluster.map(List::of).orElseGet(this::sortedNames);
        if (clusters.hosts().isEmpty() || !clusters.names().containsAll(sites)
                || sites.stream().anyMatch(site -> clusters.hostsOf(site).isEmpty())) {
            return;
        }
        List<HostCapacity> hosts = sites.stream().flatMap(site -> clusters.hostsOf(site).stream())
                .sorted(Comparator.comparing(HostCapacity::site).thenComparing(HostCapacity::host)).toList();
        NodeResources needs = job.job().components().get(index).resources();
        String component = "component " + (index + 1) + " needs ";
        String largest = "; the largest host" + cluster.map(c -> " of " + c).orElse("") + " has ";
        boolean each = true;
        if (needs.cores() > 1) {
            HostCapacity most = first(hosts, Comparator.comparingInt(HostCapacity::cores));
            if (most.cores() < needs.cores()) {
                each = false;
                fail(draft.where(Attribute.CORES), component + needs.cores() + " cores on one host" + largest
                        + cores(most.cores()) + " (" + most.host() + ")");
            }
        }
        if (needs.memoryGiven()) {
            HostCapacity most = first(hosts, Comparator.comparingLong(HostCapacity::memoryMiB));
            if (most.memoryMiB() < needs.memoryMiB()) {
                each = false;
                fail(draft.where(Attribute.MEMORY), component + NodeResources.size(needs.memoryMiB()) + " on one host"
                        + largest + NodeResources.size(most.memoryMiB()) + " (" + most.host() + ")");
            }
        }
        if (needs.gpus() > 0) {
            HostCapacity most = first(hosts, Comparator.comparingInt(HostCapacity::gpus));
            if (most.gpus() == 0) {
                each = false;
                fail(draft.where(Attribute.GPUS), component + gpus(needs.gpus()) + " on one host; no host of "
                        + either(sites) + " has " + (needs.gpus() == 1 ? "one" : "any"));
            } else if (most.gpus() < needs.gpus()) {
                each = false;
                fail(draft.where(Attribute.GPUS), component + gpus(needs.gpus()) + " on one host" + largest
                        + gpus(most.gpus()) + " (" + most.host() + ")");
            }
        }
        if (each && hosts.stream().noneMatch(h -> fits(needs, h))) {
            fail(firstWritten(draft), component + needed(needs) + " on one host; no host of " + either(sites)
                    + " has all of them");
        } else if (each && counted && !needs.equals(NodeResources.DEFAULT)) {
            enoughHosts(draft, needs, cluster, sites);
        }
    }

    /**
     * The component's nodes fit on the hosts together, several to a host where they fit: on its
     * cluster's hosts when it is pinned, on the whole grid's when the job is flexible (KOALA splits it),
     * else on the hosts of some one cluster. Only for nodes that ask for more than the defaults: the
     * count of default nodes is checked against the clusters' node counts.
     */
    private void enoughHosts(Draft draft, NodeResources needs, Optional<String> cluster, List<String> sites) {
        int count = draft.value(Attribute.COUNT, Integer.class).orElse(1);
        String each = " nodes of " + needed(needs) + " each";
        SourcePosition at = draft.where(Attribute.COUNT);
        if (job.is("flexible")) {
            long held = sites.stream().mapToLong(site -> held(needs, site)).sum();
            if (held < count) {
                fail(at, "count " + count + ": the grid's hosts hold at most " + held + each);
            }
            return;
        }
        String most = Collections.max(sites, Comparator.comparingLong((String site) -> held(needs, site))
                .thenComparing(Comparator.<String>reverseOrder()));
        long held = held(needs, most);
        if (held < count) {
            fail(at, "count " + count + ": the hosts of " + (cluster.isPresent() ? most : "any one cluster")
                    + " hold at most " + held + each + (cluster.isPresent() ? "" : " (" + most + ")"));
        }
    }

    /** How many such nodes the cluster's hosts hold when empty. */
    private long held(NodeResources needs, String site) {
        return clusters.hostsOf(site).stream().mapToLong(h -> Math.min(h.cores() / needs.cores(), Math.min(
                needs.memoryGiven() ? h.memoryMiB() / needs.memoryMiB() : Long.MAX_VALUE,
                needs.gpus() > 0 ? h.gpus() / needs.gpus() : Long.MAX_VALUE))).sum();
    }

    private static boolean fits(NodeResources needs, HostCapacity host) {
        return needs.cores() <= host.cores() && (!needs.memoryGiven() || needs.memoryMiB() <= host.memoryMiB())
                && needs.gpus() <= host.gpus();
    }

    /** The host with the most of something; of those with as much, the first by site and name. */
    private static HostCapacity first(List<HostCapacity> sorted, Comparator<HostCapacity> by) {
        HostCapacity best = sorted.get(0);
        for (HostCapacity h : sorted) {
            if (by.compare(h, best) > 0) {
                best = h;
            }
        }
        return best;
    }

    /** Where the first of cores, memory and gpus is written in the request. */
    private static SourcePosition firstWritten(Draft draft) {
        return Stream.of(Attribute.CORES, Attribute.MEMORY, Attribute.GPUS).flatMap(a -> draft.get(a).stream())
                .map(Draft.Found::valueAt).min(Comparator.comparingInt(SourcePosition::line)
                        .thenComparingInt(SourcePosition::column)).orElse(draft.at());
    }

    /** "16 cores, 64G and 1 GPU": what was asked beyond the defaults. */
    private static String needed(NodeResources needs) {
        List<String> parts = new ArrayList<>();
        if (needs.cores() > 1) {
            parts.add(cores(needs.cores()));
        }
        if (needs.memoryGiven()) {
            parts.add(NodeResources.size(needs.memoryMiB()));
        }
        if (needs.gpus() > 0) {
            parts.add(gpus(needs.gpus()));
        }
        return listed(parts, "and");
    }

    /** "fs0", "fs0 or fs1", "fs0, fs1 or fs2". */
    private static String either(List<String> names) {
        return listed(names, "or");
    }

    private static String listed(List<String> items, String last) {
        return items.size() == 1 ? items.get(0) : String.join(", ", items.subList(0, items.size() - 1)) + " " + last
                + " " + items.get(items.size() - 1);
    }

    private static String cores(int n) {
        return n + (n == 1 ? " core" : " cores");
    }

    private static String gpus(int n) {
        return n + (n == 1 ? " GPU" : " GPUs");
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

    private List<String> sortedNames() {
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
