package koala.auth;

/**
 * Which accounts of the head node KOALA serves. A user (uid 1000 and up, Debian's {@code FIRST_UID})
 * owns jobs and framework instances and may have tokens. Root and the system accounts (uid below
 * 1000: daemons such as {@code www-data}, {@code daemon}, {@code sgeadmin}) own nothing: KOALA runs
 * every job as its owner and none as them. Root is an admin and acts for a user with {@code --as
 * USER}; a token of root's is an admin's, so root may have one. No other system account may: a
 * token identifies a user or an admin to the scheduler over TCP, and a daemon's account is neither
 * (a web server's account minting itself a year-long token is what this keeps out), even one put in
 * the admin group: its admins use their own accounts.
 */
public final class SystemAccounts {
    /** The lowest uid of a user: below it are root and the system accounts (Debian's FIRST_UID). */
    public static final int FIRST_UID = 1000;

    private SystemAccounts() {
    }

    /** Root or a system account: owns no job or framework instance. */
    public static boolean isSystem(int uid) {
        return uid < FIRST_UID;
    }

    /**
     * Why {@code user} may own no {@code what} ("a job", "a framework instance"), as the scheduler
     * and the command line both say it.
     */
    public static String mayNotOwn(String user, int uid, String what) {
        return user + " (uid " + uid + ") may not own " + what + ": KOALA runs every job as its owner, and none as root "
                + "or a system account (uid below " + FIRST_UID + "). Submit as an ordinary user, or, as an admin, "
                + "for one: koala submit --as USER ...";
    }

    /** Whether {@code uid} may have a token: a user's, or root's (an admin's). */
    public static boolean mayHaveToken(int uid) {
        return uid == 0 || !isSystem(uid);
    }

    /** Why {@code user} may have no token. */
    public static String mayNotHaveToken(String user, int uid) {
        return user + " (uid " + uid + ") may not have a token: a token names a user or an admin to the scheduler, and "
                + "a system account (uid below " + FIRST_UID + ", root excepted) is neither. Create it as an ordinary "
                + "user (admins: as your own account, a member of the admin group)";
    }
}
