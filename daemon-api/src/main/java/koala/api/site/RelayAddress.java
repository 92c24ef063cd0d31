package koala.api.site;

/**
 * A relay an agent runs: compute nodes connect to {@code host:port}, the agent forwards each
 * connection to {@code target} on its head node's loopback.
 *
 * @param host the head node's name or address as its compute nodes reach it
 */
public record RelayAddress(String host, int port, int target) {
}
