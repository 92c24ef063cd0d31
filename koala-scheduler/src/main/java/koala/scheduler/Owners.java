package koala.scheduler;

import koala.common.failure.Forbidden;

/**
 * Who may change a job, an allocation or a framework instance (which is its allocation): its owner
 * and the admins. Everyone may look; nobody else may touch.
 */
final class Owners {
    private final JobBook book;

    Owners(JobBook book) {
        this.book = book;
    }

    /** The lowest uid that may own a job: below it are root and the system accounts (Debian's FIRST_UID). */
    static final int FIRST_UID = 1000;

    /**
     * Passes when {@code caller} may own a job or an allocation: KOALA runs each job as its owner,
     * and runs none as root or a system account.
     */
    static void mayOwn(Caller caller) {
        if (caller.uid() < FIRST_UID) {
            throw new Forbidden(caller.user() + " (uid " + caller.uid() + ") may not own a job: KOALA runs every job as "
                    + "its owner, and none as root or a system account (uid below " + FIRST_UID + "). Submit as an "
                    + "ordinary user, or, as an admin, for one: koala submit --as USER ...");
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
