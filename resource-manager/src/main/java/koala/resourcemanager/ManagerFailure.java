package koala.resourcemanager;

/** The resource manager refused a call; the message is its reason. */
public class ManagerFailure extends Exception {
    public ManagerFailure(String message) {
        super(message);
    }

    public ManagerFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
