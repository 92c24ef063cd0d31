package koala.resourcemanager;

/** How a job ended, as its resource manager tells it. */
public sealed interface JobEnd {
    /** Its command ran and exited with {@code status}. */
    record Exited(int status) implements JobEnd {
    }

    /** It was killed by {@code signal} (a name such as "SIGKILL", or a number). */
    record Signalled(String signal) implements JobEnd {
    }

    /** It was taken out of the manager before it finished; {@code how} says by what, in the manager's words. */
    record Deleted(String how) implements JobEnd {
    }

    /** It ended for another reason, in the manager's words. */
    record Failed(String reason) implements JobEnd {
    }
}
