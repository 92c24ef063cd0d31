package koala.api.scheduler;

import java.util.List;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;

/**
 * What a site's hosts offer jobs, summed over the hosts of its cell's last snapshot that report their
 * resources ({@link HostResources}: SGE's own bookkeeping, so local users' jobs count as KOALA's do).
 *
 * @param hosts         the hosts that reported resources
 * @param cores         their slots
 * @param coresFree     slots a new job could get now
 * @param memoryMib     the memory jobs may claim, in MiB, summed over the hosts that report it; null when none does
 * @param memoryFreeMib what is left of it now; null when no host reports it
 * @param gpus          their GPUs
 * @param gpusFree      GPUs no running job holds
 */
public record SiteResources(int hosts, int cores, int coresFree, Long memoryMib, Long memoryFreeMib, int gpus,
                            int gpusFree) {
    /** The sum over {@code hosts}' resources; null when none of them reports any. */
    public static SiteResources of(List<HostInfo> hosts) {
        int reporting = 0;
        int cores = 0;
        int coresFree = 0;
        Long memory = null;
        Long memoryFree = null;
        int gpus = 0;
        int gpusFree = 0;
        for (HostInfo h : hosts) {
            HostResources r = h.resources();
            if (r == null) {
                continue;
            }
            reporting++;
            cores += r.cores();
            coresFree += r.coresFree();
            memory = plus(memory, r.memoryMib());
            memoryFree = plus(memoryFree, r.memoryFreeMib());
            gpus += r.gpus();
            gpusFree += r.gpusFree();
        }
        return reporting == 0 ? null : new SiteResources(reporting, cores, coresFree, memory, memoryFree, gpus, gpusFree);
    }

    private static Long plus(Long sum, Long more) {
        if (more == null) {
            return sum;
        }
        return sum == null ? more : Long.valueOf(sum + more);
    }
}
