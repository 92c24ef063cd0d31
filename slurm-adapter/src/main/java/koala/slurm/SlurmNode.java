package koala.slurm;

import java.util.List;
import koala.api.site.HostResources;

/**
 * A compute host as {@code sinfo --json} shows it: what Slurm books on it, in one answer (jobs of
 * every user, KOALA's pilots and local users' alike).
 *
 * @param state      Slurm's state: idle, mixed, allocated, down, drained, ...
 * @param flags      more of its state: DRAIN, NOT_RESPONDING, ...
 * @param memoryMib  its {@code RealMemory}: what jobs may claim
 * @param memoryUsedMib what running jobs claim of it
 * @param reason     why an admin or Slurm took it out of service; empty otherwise
 * @param partitions the partitions it is in
 * @param architecture {@code x86_64}
 * @param load       its load average ({@code cpu_load}, which Slurm gives in hundredths)
 * @param freeMib    its free memory as its slurmd reads it ({@code free_memory})
 */
public record SlurmNode(String name, String address, String state, List<String> flags, int cpus, int cpusUsed,
                        long memoryMib, long memoryUsedMib, int gpus, int gpusUsed, String reason, List<String> partitions,
                        String architecture, double load, long freeMib) {
    public SlurmNode {
        flags = List.copyOf(flags);
        partitions = List.copyOf(partitions);
    }

    /** Whether a new job may start on it: up and neither draining nor drained, nor silent. */
    public boolean usable() {
        return List.of("idle", "mixed", "allocated").contains(state)
                && flags.stream().noneMatch(f -> f.startsWith("DRAIN") || f.equals("NOT_RESPONDING") || f.equals("MAINTENANCE"));
    }

    /**
     * What it offers, as KOALA's placement counts it.
     *
     * @param memoryBooked whether the cluster books memory ({@code SelectTypeParameters=CR_*_Memory}): then
     *                     what jobs claim is taken off {@code RealMemory}, as SGE's consumable {@code h_vmem};
     *                     else the host's free memory is a load figure
     * @param freeMib      the host's free memory as {@code sinfo} reads it ({@code free_memory})
     */
    public HostResources resources(boolean memoryBooked, long freeMib) {
        boolean up = usable();
        long memoryFree = memoryBooked ? memoryMib - memoryUsedMib : freeMib;
        return new HostResources(cpus, up ? cpus - cpusUsed : 0, memoryMib, up ? Math.max(0, memoryFree) : 0,
                memoryBooked ? HostResources.MemorySource.CONSUMABLE : HostResources.MemorySource.LOAD, gpus,
                up ? gpus - gpusUsed : 0);
    }
}
