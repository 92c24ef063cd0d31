package koala.scheduler.remote;

/** A remote site could not be reached or set up; the message names the site and what to fix. */
public final class SshFailure extends RuntimeException {
    public SshFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
