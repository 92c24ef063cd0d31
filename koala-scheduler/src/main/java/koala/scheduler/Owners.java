package koala.scheduler;

import koala.auth.SystemAccounts;
import koala.common.failure.Forbidden;
import koala.scheduler.api.Caller;

/**
 * Who may change a job, an allocation or a framework instance (which is its allocation): its owner
 * and the admins. Everyone may look; nobody else may touch.
 */
final class Owners {
    private final JobBook book;

    Owners(JobBook book) {
        this.book = book;
    }

    /**
     * Passes when {@code caller} may own a job or an allocation: KOALA runs each job as its owner,
     * and runs none as root or a system account.
     */
    static void mayOwn(Caller caller) {
        if (SystemAccounts.isSystem(caller.uid())) {
            throw new Forbidden(SystemAccounts.mayNotOwn(caller.user(), caller.uid(), "a job"));
        }
    }

    /**
     * Passes when {@code caller} may {@code action} job {@code id}, or when there is no such job (the
     * operation then answers that itself); otherwise {@link Forbidden} with whose it is.
     */
    void check(Caller caller, long id, String action) {
        book.find(id).ifPresent(job -> {
            String owner = job.record().owner();
            if (caller.admin() || caller.user().equals(owner)) {
                return;
            }
            String what = (job.allocation() ? "allocation " : "job ") + id;
            throw new Forbidden(caller.user() + " may not " + action + " " + what + (owner == null
                    ? ": it has no recorded owner (it predates owners), so only an admin may" : ": it belongs to " + owner));
        });
    }
}
