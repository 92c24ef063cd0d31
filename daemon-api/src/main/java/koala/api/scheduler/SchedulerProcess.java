package koala.api.scheduler;

import java.time.Instant;

/**
 * The running scheduler as a process ({@code GET /scheduler}): what {@code koala config check} tells
 * an admin about the scheduler a file is meant for, and the live page shows of who leads.
 *
 * @param pid             its process id on its host
 * @param reloadsOnHangup whether {@code SIGHUP} reads its configuration again
 * @param hangupWarning   when it does not, why and what to do instead; empty when it does
 * @param name            its name among the schedulers sharing its store (host and process id); null from an older one
 * @param epoch           the lease's epoch it leads at (1 on a store of its own); 0 from an older one
 * @param leadingSince    when it took the lead; null from an older one
 */
public record SchedulerProcess(long pid, boolean reloadsOnHangup, String hangupWarning, String name, long epoch,
                               Instant leadingSince) {
    public SchedulerProcess(long pid, boolean reloadsOnHangup, String hangupWarning) {
        this(pid, reloadsOnHangup, hangupWarning, null, 0, null);
    }
}
