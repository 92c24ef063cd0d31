package koala.common.api;

import java.util.List;
import java.util.Map;

/**
 * What the scheduler tells a node launcher: wait, run a command, or exit (freeing the node).
 *
 * @param action         WAIT, RUN or EXIT
 * @param maxWallSeconds how long the command may run (the component's {@code maxWallTime}) before
 *                       the launcher stops it and reports {@link NodeReport#PAST_WALL_TIME}; null for no limit
 */
public record NodeTask(String action, String executable, List<String> arguments, Map<String, String> environment,
                       String directory, String stdout, String stderr, Long maxWallSeconds) {
    public static NodeTask waiting() {
        return new NodeTask("WAIT", null, null, null, null, null, null, null);
    }

    public static NodeTask exit() {
        return new NodeTask("EXIT", null, null, null, null, null, null, null);
    }
}
