package koala.resourcemanager;

import koala.api.site.MemoryUse;

/**
 * A job that ended.
 *
 * @param memory what it claimed and used of memory, and whether the manager stopped it for using more;
 *               null when the manager told nothing of it
 */
public record EndedJob(String id, JobEnd end, MemoryUse memory) {
    /** A job that ended with nothing known of its memory. */
    public EndedJob(String id, JobEnd end) {
        this(id, end, null);
    }
}
