package koala.jdf;

import java.util.Objects;

/**
 * One host of the grid and what a single node placed on it could have at most: its cores, memory and
 * GPUs in all (not what is free now). The checks of a JDF against the grid refuse a component whose
 * node would not fit on any host it may go to.
 *
 * @param site      the cluster the host belongs to, as a JDF names it ({@code resourceManagerContact})
 * @param host      its name, as messages show it ({@code fs0-n13})
 * @param memoryMiB its memory in MiB (1G = 1024)
 */
public record HostCapacity(String site, String host, int cores, long memoryMiB, int gpus) {
    public HostCapacity {
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(host, "host");
        if (cores < 1 || memoryMiB < 0 || gpus < 0) {
            throw new IllegalArgumentException("host " + host + ": cores must be 1 or more, memory and GPUs 0 or "
                    + "more (cores " + cores + ", memory " + memoryMiB + " MiB, GPUs " + gpus + ")");
        }
    }
}
