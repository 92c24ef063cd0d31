package koala.scheduler.config;

import sun.misc.SignalHandler;

/**
 * Whether {@code SIGHUP} reads the scheduler's configuration again, as found when the scheduler
 * asked for the signal at its start ({@code sun.misc.Signal.handle}).
 *
 * <p>A process started with {@code SIGHUP} ignored — under {@code nohup}, or by a parent that
 * ignores it — has it ignored from its first instruction, and HotSpot leaves it so: asked for a
 * handler of a hang-up signal that is ignored, it installs nothing and answers {@code SIG_IGN} as the
 * handler before. {@code kill -HUP} and {@code systemctl reload} then do nothing at all, and say
 * nothing. That answer is what is read here, rather than the {@code SigIgn} mask of
 * {@code /proc/self/status}: it tells whether the handler is in place, which is the consequence
 * that matters, and needs no Linux file format.
 *
 * @param reloads whether a {@code SIGHUP} reads the configuration again
 * @param why     why it does not, in an admin's words; empty when it does
 */
public record HangupReload(boolean reloads, String why) {
    /** The handler is in place. */
    public static final HangupReload CAUGHT = new HangupReload(true, "");
    /** A scheduler inside another program (a test's) that asked for no signal. */
    public static final HangupReload NOT_ASKED = new HangupReload(false,
            "the scheduler runs inside another program and asked for no SIGHUP");

    public HangupReload {
        why = why == null ? "" : why;
    }

    /** From what {@code Signal.handle} answered: the handler in place before, or {@code SIG_IGN} when it installed none. */
    public static HangupReload after(SignalHandler previous) {
        return previous == SignalHandler.SIG_IGN ? new HangupReload(false, "SIGHUP was ignored when the scheduler "
                + "started (under nohup, or by a parent that ignores it), and the JVM keeps it ignored") : CAUGHT;
    }

    /** {@code Signal.handle} refused the signal: the JVM keeps it for itself (as with {@code -Xrs}). */
    public static HangupReload refused(String reason) {
        return new HangupReload(false, "the JVM did not let the scheduler catch SIGHUP (" + reason + ")");
    }

    /** What the log says at the start and {@code koala config check} repeats; empty when it reloads. */
    public String warning() {
        return reloads ? "" : "SIGHUP will not reload the configuration (kill -HUP and systemctl reload do nothing): "
                + why + ". To apply an edited file, restart the scheduler (systemctl restart koala-scheduler carries on "
                + "with what ran), not under nohup (setsid or systemd detach it instead)";
    }
}
