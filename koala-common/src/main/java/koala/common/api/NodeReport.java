package koala.common.api;

/**
 * What a node launcher reports: that it arrived on its host, or how its command ended.
 *
 * @param exitStatus null on arrival
 */
public record NodeReport(String token, String host, Integer exitStatus) {
}
