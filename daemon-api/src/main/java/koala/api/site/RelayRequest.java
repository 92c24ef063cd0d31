package koala.api.site;

/**
 * Asks a remote site's agent for a relay: connections to the relay host's {@code port} forwarded to
 * {@code target} on the head node's loopback (where an SSH remote forward reaches the KOALA host).
 *
 * @param port the port to listen on, as granted before (launchers were told it); 0 for any
 */
public record RelayRequest(int target, int port) {
}
