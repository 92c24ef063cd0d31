package koala.resourcemanager;

/** The connection to the resource manager was lost: the cluster reads DOWN until a new one opens. */
public class ManagerLost extends ManagerFailure {
    public ManagerLost(String message, Throwable cause) {
        super(message, cause);
    }
}
