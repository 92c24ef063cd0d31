package koala.resourcemanager;

/** The resource manager has no job of that id: it ended and was forgotten, or never was. */
public class UnknownJob extends ManagerFailure {
    public UnknownJob(String message, Throwable cause) {
        super(message, cause);
    }
}
