package koala.api.site;

import java.util.List;
import java.util.stream.IntStream;

/**
 * What one execution host offers jobs, in KOALA's units, with what is free of it now; read from
 * SGE's own bookkeeping ({@code qhost -F -q}, the cell's consumables), so that a local user's job
 * and KOALA's pilots count alike.
 *
 * @param cores          the slots the host's queues offer (capped by a host consumable {@code slots})
 * @param coresFree      slots a new job could get now: usable queue instances only
 * @param memoryMib      the memory jobs may claim: the consumable {@code h_vmem} when the admin made it
 *                       one on this host, else the host's {@code mem_total}; null when SGE says neither
 * @param memoryFreeMib  what is left of it now: the consumable's remainder, or the host's {@code mem_free}
 * @param memory         where the memory figures come from
 * @param gpus           the host's consumable {@value #GPU_COMPLEX}, 0 when it has none
 * @param gpusFree       GPUs no running job holds
 */
public record HostResources(int cores, int coresFree, Long memoryMib, Long memoryFreeMib, MemorySource memory,
                            int gpus, int gpusFree) {
    /** The consumable complex a GPU host declares ({@code complex_values gpu=N}). */
    public static final String GPU_COMPLEX = "gpu";
    /** The consumable that limits a job's memory when the admin made it consumable. */
    public static final String MEMORY_COMPLEX = "h_vmem";

    /** Where a host's memory figures come from. */
    public enum MemorySource {
        /** the consumable {@code h_vmem}: SGE books each job's claim and stops a job that exceeds it */
        CONSUMABLE,
        /** the load values {@code mem_total}/{@code mem_free}: nothing is booked, nothing enforced */
        LOAD,
        /** SGE reported no memory for the host (its execd never reported) */
        UNKNOWN
    }

    /**
     * The device indices of the host's GPUs when the grid configuration names none: 0..gpus-1, as
     * CUDA numbers the devices of a host it may use ({@code CUDA_VISIBLE_DEVICES}).
     */
    public List<Integer> defaultGpuDevices() {
        return IntStream.range(0, gpus).boxed().toList();
    }
}
