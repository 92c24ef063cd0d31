package koala.common.api;

/**
 * What a node launcher reports: that it arrived on its host, or how its command ended.
 *
 * @param exitStatus null on arrival
 */
public record NodeReport(String token, String host, Integer exitStatus) {
    /**
     * The exit status a launcher reports for a command it stopped because it ran past its
     * component's {@code maxWallTime}: negative, so no command's own status can be mistaken for it.
     */
    public static final int PAST_WALL_TIME = -124;
}
