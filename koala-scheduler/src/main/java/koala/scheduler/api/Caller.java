package koala.scheduler.api;

/**
 * Who asks the scheduler for something, as it established it: over its Unix socket the kernel
 * named them; over TCP a token the scheduler signed did.
 *
 * @param admin root, or a member of the configured admin group: may change any job
 * @param via   how they were identified, for the audit log ("unix socket", "token")
 */
public record Caller(String user, int uid, boolean admin, String via) {
    /** KOALA's own tests of pure code, and nothing else, act as this one. */
    public static final Caller ROOT = new Caller("root", 0, true, "test");

    @Override
    public String toString() {
        return user + " (uid " + uid + (admin ? ", admin" : "") + ", by " + via + ")";
    }
}
