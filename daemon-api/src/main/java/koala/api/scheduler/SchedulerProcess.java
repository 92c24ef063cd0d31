package koala.api.scheduler;

/**
 * The running scheduler as a process ({@code GET /scheduler}): what {@code koala config check} tells
 * an admin about the scheduler a file is meant for.
 *
 * @param pid             its process id on the KOALA host
 * @param reloadsOnHangup whether {@code SIGHUP} reads its configuration again
 * @param hangupWarning   when it does not, why and what to do instead; empty when it does
 */
public record SchedulerProcess(long pid, boolean reloadsOnHangup, String hangupWarning) {
}
