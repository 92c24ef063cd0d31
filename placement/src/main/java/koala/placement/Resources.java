package koala.placement;

/**
 * What one node of a component asks for, or what a host has: cores, memory and GPUs, as Slurm's
 * trackable resources and SGE's consumables count them. A dimension at 0 in a request is not asked
 * for, so any host satisfies it.
 *
 * @param cores     cores (SGE slots)
 * @param memoryMiB memory in MiB
 * @param gpus      GPU devices
 */
public record Resources(int cores, long memoryMiB, int gpus) {
    /** Today's node: one core (one SGE slot), no memory or GPU asked for. */
    public static final Resources NODE = new Resources(1, 0, 0);
    public static final Resources NONE = new Resources(0, 0, 0);

    public Resources {
        if (cores < 0 || memoryMiB < 0 || gpus < 0) {
            throw new IllegalArgumentException("resources cannot be negative: " + cores + " cores, "
                    + memoryMiB + " MiB, " + gpus + " GPUs");
        }
    }

    /** Whether {@code need} fits in these, dimension by dimension. */
    public boolean fits(Resources need) {
        return cores >= need.cores && memoryMiB >= need.memoryMiB && gpus >= need.gpus;
    }

    public Resources plus(Resources other) {
        return new Resources(cores + other.cores, memoryMiB + other.memoryMiB, gpus + other.gpus);
    }

    /** These less {@code other}; it must fit (a host never gives what it does not have). */
    public Resources minus(Resources other) {
        if (!fits(other)) {
            throw new IllegalArgumentException(other + " does not fit in " + this);
        }
        return new Resources(cores - other.cores, memoryMiB - other.memoryMiB, gpus - other.gpus);
    }

    public Resources times(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot take resources " + n + " times");
        }
        return new Resources(Math.multiplyExact(cores, n), Math.multiplyExact(memoryMiB, (long) n), Math.multiplyExact(gpus, n));
    }

    /**
     * How many nodes of {@code per} fit in these: the minimum over the dimensions {@code per} asks for
     * of {@code floor(this_d / per_d)}. A request that asks for nothing fits any number of times.
     */
    public int count(Resources per) {
        return count(cores, memoryMiB, gpus, per);
    }

    /** {@link #count} over raw free amounts, for the ledger's arrays (no record built per host). */
    static int count(int cores, long memoryMiB, int gpus, Resources per) {
        int n = Integer.MAX_VALUE;
        if (per.cores > 0) {
            n = cores / per.cores;
        }
        if (per.memoryMiB > 0 && n > 0) {
            n = (int) Math.min(n, memoryMiB / per.memoryMiB);
        }
        if (per.gpus > 0 && n > 0) {
            n = Math.min(n, gpus / per.gpus);
        }
        return n;
    }

    /** In the words of a reason: "8 cores and 32G", "1 core", "4 cores, 16G and 1 GPU". */
    public String describe() {
        java.util.List<String> parts = new java.util.ArrayList<>(3);
        parts.add(cores + (cores == 1 ? " core" : " cores"));
        if (memoryMiB > 0) {
            parts.add(memoryMiB % 1024 == 0 ? memoryMiB / 1024 + "G" : memoryMiB + "M");
        }
        if (gpus > 0) {
            parts.add(gpus + (gpus == 1 ? " GPU" : " GPUs"));
        }
        if (parts.size() == 1) {
            return parts.get(0);
        }
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }

    @Override
    public String toString() {
        return describe();
    }
}
