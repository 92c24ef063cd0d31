package koala.testbed;

/** A testbed step that failed, saying which and why. */
public class TestbedException extends RuntimeException {
    public TestbedException(String message) {
        super(message);
    }
}
