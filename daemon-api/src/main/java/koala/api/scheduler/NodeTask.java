package koala.api.scheduler;

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
 * @param mpiApps        with {@code mpiHosts}, when the job's components run different programs (MPMD):
 *                       each component's program and its ranks, in rank order ({@code mpirun A : B}); null
 *                       when every rank runs this task's executable and arguments
 */
public record NodeTask(String action, String executable, List<String> arguments, Map<String, String> environment,
                       String directory, String stdout, String stderr, Long maxWallSeconds, List<String> mpiHosts,
                       List<MpiApp> mpiApps) {
    public NodeTask(String action, String executable, List<String> arguments, Map<String, String> environment,
                    String directory, String stdout, String stderr, Long maxWallSeconds) {
        this(action, executable, arguments, environment, directory, stdout, stderr, maxWallSeconds, null, null);
    }

    public NodeTask(String action, String executable, List<String> arguments, Map<String, String> environment,
                    String directory, String stdout, String stderr, Long maxWallSeconds, List<String> mpiHosts) {
        this(action, executable, arguments, environment, directory, stdout, stderr, maxWallSeconds, mpiHosts, null);
    }

    /** One program of an MPI job's world and how many ranks run it (one component's). */
    public record MpiApp(int ranks, String executable, List<String> arguments) {
        public MpiApp {
            arguments = arguments == null ? List.of() : List.copyOf(arguments);
        }
    }

    /** This task with {@code environment} instead of its own. */
    public NodeTask withEnvironment(Map<String, String> environment) {
        return new NodeTask(action, executable, arguments, environment, directory, stdout, stderr, maxWallSeconds,
                mpiHosts, mpiApps);
    }

    public static NodeTask waiting() {
        return new NodeTask("WAIT", null, null, null, null, null, null, null);
    }

    public static NodeTask exit() {
        return new NodeTask("EXIT", null, null, null, null, null, null, null);
    }
}
