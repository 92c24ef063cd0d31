package koala.api.scheduler;

/**
 * What a node launcher reports: that it arrived on its host, or how its command ended.
 *
 * @param exitStatus null on arrival
 * @param detail     what the command said of its end, when the launcher knows more than the status (for
 *                   an MPI job's {@code mpirun}: which rank ended the world, on which host, and how); else null
 * @param cpuSeconds on exit, the CPU time (user + system) the command and everything below it used, if the
 *                   launcher measured it; null otherwise (the job's CPU time is then unknown)
 */
public record NodeReport(String token, String host, Integer exitStatus, String detail, Double cpuSeconds) {
    /** An arrival, or an exit with nothing more to say. */
    public NodeReport(String token, String host, Integer exitStatus) {
        this(token, host, exitStatus, null, null);
    }

    /** An exit with what the command said of its end, its CPU time not measured. */
    public NodeReport(String token, String host, Integer exitStatus, String detail) {
        this(token, host, exitStatus, detail, null);
    }

    /**
     * The exit status a launcher reports for a command it stopped because it ran past its
     * component's {@code maxWallTime}: negative, so no command's own status can be mistaken for it.
     */
    public static final int PAST_WALL_TIME = -124;
}
