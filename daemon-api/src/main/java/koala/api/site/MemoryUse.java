package koala.api.site;

import java.util.Locale;

/**
 * What a pilot's job used of the memory it claimed, as its resource manager accounted it when the job
 * ended. On SGE the claim is {@code h_vmem} times the job's slots on its host (what SGE enforces: each
 * process's address space is limited to it, and the execution daemon kills the whole job with
 * SIGKILL when the job's processes together use more), the use is {@code maxvmem}.
 *
 * @param claimMib what the job claimed, in MiB; null when it claimed nothing
 * @param maxMib   the most the job used at once as the manager measured it, in MiB; null when not told
 * @param exceeded true when the manager stopped the job because it used more than its claim
 */
public record MemoryUse(Long claimMib, Long maxMib, boolean exceeded) {
    /** Says so in a user's words: {@code exceeded its 1G memory (max 1.08G)}, {@code 779M of its 1G memory}. */
    public String describe() {
        String used = maxMib == null ? "an unknown amount" : size(maxMib);
        if (claimMib == null) {
            return used + " used, no memory claimed";
        }
        if (exceeded) {
            return "exceeded its " + size(claimMib) + " memory" + (maxMib == null ? "" : " (max " + size(maxMib) + ")");
        }
        return used + " of its " + size(claimMib) + " memory";
    }

    /** MiB as SGE's users write sizes: {@code 512M}, {@code 1G}, {@code 1.08G}. */
    public static String size(long mib) {
        if (mib < 1024) {
            return mib + "M";
        }
        String g = String.format(Locale.ROOT, "%.2f", mib / 1024.0).replaceFirst("\\.?0+$", "");
        return g + "G";
    }
}
