package koala.common.api;

/**
 * What a node launcher reports: that it arrived on its host, or how its command ended.
 *
 * @param exitStatus null on arrival
 * @param detail     what the command said of its end, when the launcher knows more than the status (for
 *                   an MPI job's {@code mpirun}: which rank ended the world, on which host, and how); else null
 */
public record NodeReport(String token, String host, Integer exitStatus, String detail) {
    public NodeReport(String token, String host, Integer exitStatus) {
        this(token, host, exitStatus, null);
    }

    /**
     * The exit status a launcher reports for a command it stopped because it ran past its
     * component's {@code maxWallTime}: negative, so no command's own status can be mistaken for it.
     */
    public static final int PAST_WALL_TIME = -124;
}
