package koala.grid;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How the scheduler reaches a remote site: an account on the cluster's head node, reached over
 * SSH. Nothing is installed on the cluster: the scheduler copies the agent there, starts it with
 * the cell's environment and talks to it through a port forward. The site's {@code sge.*} and
 * {@code drmaa.*} keys then describe paths and ports on the head node.
 *
 * @param host        the head node
 * @param user        the account KOALA logs in as; the agent and every pilot run as it
 * @param key         the private key (OpenSSH or PEM format, no passphrase) that account accepts
 * @param knownHosts  the known_hosts file the head node's key is checked against
 * @param checkHostKey false only to accept any host key (not for production: it allows a man in the middle)
 * @param dir         directory on the head node for the agent's jars, state and logs; relative to the
 *                    account's home. Pilots run from it too, so compute nodes must see it (a shared home)
 * @param java        the Java 17+ command on the head node (and on its compute nodes)
 * @param agentIdleExit how long the remote agent keeps running with no scheduler calling it
 * @param relayHost   the head node's name or address as its compute nodes reach it, where the agent's
 *                    relays for the pilots' call-backs listen; empty for the name {@code hostname}
 *                    prints there
 * @param retryMax    the longest wait between tries to connect again after the link failed (the waits
 *                    double from a second up to it)
 */
public record SshConfig(String host, int port, String user, Path key, Path knownHosts, boolean checkHostKey,
                        String dir, String java, Duration agentIdleExit, Optional<String> relayHost,
                        Duration retryMax) {
    /** The longest wait between tries to connect again unless the site says otherwise. */
    public static final Duration RETRY_MAX = Duration.ofSeconds(30);

    /** A head node tried again at most every {@link #RETRY_MAX}. */
    public SshConfig(String host, int port, String user, Path key, Path knownHosts, boolean checkHostKey,
                     String dir, String java, Duration agentIdleExit, Optional<String> relayHost) {
        this(host, port, user, key, knownHosts, checkHostKey, dir, java, agentIdleExit, relayHost, RETRY_MAX);
    }

    /** {@code user@host:port}, as messages name the head node. */
    public String address() {
        return user + "@" + host + ":" + port;
    }
}
