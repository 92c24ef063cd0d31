package koala.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import koala.api.site.CellSnapshot;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;
import koala.api.site.MemoryUse;
import koala.api.site.PilotStatus;
import koala.jdf.HostCapacity;
import koala.jdf.JobDescription;
import koala.jdf.NodeResources;
import koala.scheduler.claiming.NodeClaim;

/**
 * What a site's hosts mean for the nodes KOALA puts there, read from its agent's last snapshot: the
 * hosts a JDF is checked against, the memory a node that asks none claims, and
 * how a node SGE stopped for its memory is told to its user. Pure: no I/O, no clock.
 */
final class SiteHosts {
    private SiteHosts() {
    }

    /**
     * The site's hosts as a JDF is checked against them (a node must fit on one), when its agent
     * reports every host's resources; none otherwise, and then the site is not checked by host.
     */
    static List<HostCapacity> capacities(String site, CellSnapshot snapshot) {
        List<HostCapacity> hosts = new ArrayList<>();
        for (HostInfo h : snapshot.hosts()) {
            HostResources r = h.resources();
            if (r == null) {
                return List.of();
            }
            if (r.cores() > 0) {
                hosts.add(new HostCapacity(site, h.name(), r.cores(), r.memoryMib() == null ? 0 : r.memoryMib(), r.gpus()));
            }
        }
        return hosts;
    }

    /**
     * What a node that asks for no memory claims per core on the site: where the site books memory
     * ({@code h_vmem} consumable: there SGE gives a pilot that claims none no memory at all), its hosts'
     * least memory per core, as Slurm's {@code DefMemPerCPU}; 0 elsewhere (nothing claimed).
     */
    static long memoryPerCore(CellSnapshot snapshot) {
        return snapshot.hosts().stream().map(HostInfo::resources)
                .filter(r -> r != null && r.memory() == HostResources.MemorySource.CONSUMABLE && r.memoryMib() != null
                        && r.cores() > 0)
                .mapToLong(r -> r.memoryMib() / r.cores()).min().orElse(0L);
    }

    /**
     * How a node's pilot ended, in the user's terms: one SGE stopped for its memory says the memory its
     * JDF asked for, beside what the pilot claimed with the launcher's share and the most it used.
     */
    static String howItEnded(JobDescription description, NodeClaim node, PilotStatus status) {
        MemoryUse memory = status.memory();
        if (memory == null || !memory.exceeded()) {
            return status.reason();
        }
        long asked = description.components().size() > node.component()
                ? description.components().get(node.component()).resources().memoryMiB() : 0;
        String claimed = memory.claimMib() == null ? ""
                : "its pilot claimed " + MemoryUse.size(memory.claimMib()) + " with the launcher's share";
        String used = memory.maxMib() == null ? "" : "used at most " + MemoryUse.size(memory.maxMib());
        String figures = String.join(" and ", Stream.of(claimed, used).filter(x -> !x.isEmpty()).toList());
        return (asked > 0 ? "exceeded its " + NodeResources.size(asked) + " memory" : "exceeded its memory")
                + (figures.isEmpty() ? "" : " (" + figures + ")") + ": stopped by SGE";
    }
}
