package koala.common.api;

import java.util.List;
import java.util.Map;

/**
 * What the scheduler tells a node launcher: wait, run a command, or exit (freeing the node).
 *
 * @param action WAIT, RUN or EXIT
 */
public record NodeTask(String action, String executable, List<String> arguments, Map<String, String> environment,
                       String directory, String stdout, String stderr) {
    public static NodeTask waiting() {
        return new NodeTask("WAIT", null, null, null, null, null, null);
    }

    public static NodeTask exit() {
        return new NodeTask("EXIT", null, null, null, null, null, null);
    }
}
