package koala.common.api;

import java.util.List;
import java.util.Map;

/**
 * What the scheduler tells a node launcher: wait, run a command, or exit (freeing the node).
 *
 * @param action         WAIT, RUN or EXIT
 * @param maxWallSeconds how long the command may run (the component's {@code maxWallTime}) before
 *                       the launcher stops it and reports {@link NodeReport#PAST_WALL_TIME}; null for no limit
 * @param mpiHosts       for the first node of an MPI job: every node's host, in rank order, each once
 *                       per slot; the launcher runs the command under {@code mpirun} over them, starting
 *                       Open MPI's daemons through the other nodes' launchers. Null for any other task
 */
public record NodeTask(String action, String executable, List<String> arguments, Map<String, String> environment,
                       String directory, String stdout, String stderr, Long maxWallSeconds, List<String> mpiHosts) {
    public NodeTask(String action, String executable, List<String> arguments, Map<String, String> environment,
                    String directory, String stdout, String stderr, Long maxWallSeconds) {
        this(action, executable, arguments, environment, directory, stdout, stderr, maxWallSeconds, null);
    }

    public static NodeTask waiting() {
        return new NodeTask("WAIT", null, null, null, null, null, null, null);
    }

    public static NodeTask exit() {
        return new NodeTask("EXIT", null, null, null, null, null, null, null);
    }
}
