package koala.sge;

/** The cell's qmaster did not answer; the message is what SGE said. */
public class CellUnreachableException extends RuntimeException {
    public CellUnreachableException(String message) {
        super(message);
    }
}
