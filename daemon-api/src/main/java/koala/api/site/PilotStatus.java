package koala.api.site;

import java.time.Instant;

/**
 * A pilot job as its site agent knows it.
 *
 * @param exitStatus the command's exit status once {@code DONE}
 * @param reason     why it {@code FAILED} ("killed by KOALA", "signal SIGKILL", "exceeded its 4G memory
 *                   (max 4.2G): stopped by SGE", ...)
 * @param memory     once it ended, what it claimed and used of memory, and whether it was stopped for using
 *                   more than it claimed ({@link MemoryUse#exceeded()}); null while it runs or when the
 *                   resource manager told nothing of it
 */
public record PilotStatus(String id, String site, String name, PilotState state, Integer exitStatus,
                          String reason, Instant submittedAt, Instant finishedAt, MemoryUse memory) {
    /** A pilot with nothing known of its memory. */
    public PilotStatus(String id, String site, String name, PilotState state, Integer exitStatus, String reason,
                       Instant submittedAt, Instant finishedAt) {
        this(id, site, name, state, exitStatus, reason, submittedAt, finishedAt, null);
    }

    /** True when the pilot ended because its job used more memory than it claimed. */
    public boolean exceededMemory() {
        return memory != null && memory.exceeded();
    }
}
