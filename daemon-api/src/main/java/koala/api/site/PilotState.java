package koala.api.site;

/**
 * Where a pilot job is in its cell. {@code DONE} means the job's command ran to its end, whatever
 * its exit status; {@code FAILED} means it was killed, signalled, or never ran.
 */
public enum PilotState {
    QUEUED, HELD, RUNNING, SUSPENDED, DONE, FAILED, UNKNOWN;

    public boolean isFinal() {
        return this == DONE || this == FAILED;
    }
}
