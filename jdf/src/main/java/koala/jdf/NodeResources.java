package koala.jdf;

/**
 * What one node of a component needs on its host: the JDF's {@code cores}, {@code memory} and
 * {@code gpus}. A node is never split over hosts, so each figure must fit on one host.
 *
 * @param cores     cores per node, 1 or more (default 1)
 * @param memoryMiB memory per node in MiB (binary: 1G in a JDF is 1024), or {@value #MEMORY_NOT_GIVEN}
 *                  when the JDF gives none: the site's default applies, or no limit
 * @param gpus      GPUs per node, 0 or more (default 0)
 */
public record NodeResources(int cores, long memoryMiB, int gpus) {
    /** {@link #memoryMiB()} when the JDF says nothing about memory. */
    public static final long MEMORY_NOT_GIVEN = 0;

    /** What a node needs when its component says nothing: one core, no memory asked, no GPU. */
    public static final NodeResources DEFAULT = new NodeResources(1, MEMORY_NOT_GIVEN, 0);

    public NodeResources {
        if (cores < 1) {
            throw new IllegalArgumentException("cores per node must be 1 or more, not " + cores);
        }
        if (memoryMiB < 0) {
            throw new IllegalArgumentException("memory per node must be 0 (not given) or more MiB, not " + memoryMiB);
        }
        if (gpus < 0) {
            throw new IllegalArgumentException("GPUs per node must be 0 or more, not " + gpus);
        }
    }

    /** Whether the JDF asked for an amount of memory. */
    public boolean memoryGiven() {
        return memoryMiB != MEMORY_NOT_GIVEN;
    }

    /**
     * A size in MiB as a JDF writes it, in the largest unit that shows it whole: 65536 is
     * {@code 64G}, 1536 is {@code 1536M}, 1048576 is {@code 1T}.
     */
    public static String size(long mib) {
        if (mib != 0 && mib % (1024L * 1024) == 0) {
            return mib / (1024L * 1024) + "T";
        }
        if (mib != 0 && mib % 1024 == 0) {
            return mib / 1024 + "G";
        }
        return mib + "M";
    }
}
