package koala.sge;

/** The cell's qmaster did not answer; the message is what SGE said, or that it said nothing in time. */
public class CellUnreachableException extends RuntimeException {
    private final boolean timedOut;

    public CellUnreachableException(String message) {
        this(message, false);
    }

    public CellUnreachableException(String message, boolean timedOut) {
        super(message);
        this.timedOut = timedOut;
    }

    /** True when the command was still waiting at its time-out (a stalled qmaster), not refused. */
    public boolean timedOut() {
        return timedOut;
    }
}
