package koala.scheduler.storage;

/** The database refused a read or a write. */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
