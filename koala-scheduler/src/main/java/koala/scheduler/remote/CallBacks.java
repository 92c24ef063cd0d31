package koala.scheduler.remote;

import com.jcraft.jsch.JSchException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import koala.api.site.RelayAddress;
import koala.api.site.SiteAgentClient;
import koala.grid.SiteConfig;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * How a remote site's compute nodes reach addresses on the KOALA side (the scheduler's, runners'):
 * for each, an SSH remote forward to it on the head node's loopback, and a relay of the site's
 * agent on the head node's cluster-facing address to that forward. Both ask for the ports granted
 * before: launchers were told the relay's, and find it again after a reconnection or an agent
 * restart. A runner's are forgotten when its instance ends ({@link #forget}).
 */
final class CallBacks {
    private static final Logger LOG = LogManager.getLogger(CallBacks.class);

    /** An address on the KOALA side that pilots call back to. */
    record Endpoint(String host, int port) {
    }

    /** How the site's nodes reach an {@link Endpoint}: a relay on the head node, to the SSH forward's port there. */
    record Callback(int forward, String relayHost, int relayPort) {
        String authority() {
            return relayHost + ":" + relayPort;
        }
    }

    private final SiteConfig site;
    private final String koalaHost;
    private final Endpoint scheduler;
    private final Map<Endpoint, Callback> known = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param koalaHost the name or address this machine advertises for itself and its runners; URLs
     *                  on it, or on loopback, are the ones relayed
     */
    CallBacks(SiteConfig site, String koalaHost, int schedulerPort) {
        this.site = site;
        this.koalaHost = koalaHost;
        this.scheduler = new Endpoint(koalaHost, schedulerPort);
    }

    Endpoint scheduler() {
        return scheduler;
    }

    /** The KOALA-side address a URL names, if it is one the site's nodes need relayed. */
    Optional<Endpoint> endpoint(URI uri) {
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        if (uri.getPort() < 0) {
            return Optional.empty();
        }
        if (host.equals("127.0.0.1") || host.equals("localhost")) {
            return Optional.of(new Endpoint("127.0.0.1", uri.getPort()));
        }
        return host.equals(koalaHost.toLowerCase(Locale.ROOT)) ? Optional.of(new Endpoint(koalaHost, uri.getPort()))
                : Optional.empty();
    }

    /** {@code url} with its host and port replaced by the relay's. */
    static String relayed(String url, Callback back) {
        return url.replaceFirst("//[^/]+", "//" + back.authority());
    }

    Optional<Callback> known(Endpoint to) {
        return Optional.ofNullable(known.get(to));
    }

    /**
     * Forgets the call-back to {@code to} (a runner's, whose instance ended): it is not made again on a
     * reconnection. The scheduler's own is never forgotten. Returns what it was, to be closed.
     */
    synchronized Optional<Callback> forget(Endpoint to) {
        return to.equals(scheduler) ? Optional.empty() : Optional.ofNullable(known.remove(to));
    }

    /**
     * After a (re)connection or an agent restart: the scheduler's call-back, on the ports granted
     * before if they are free (kept on the head node across scheduler restarts), and the runners'
     * call-backs made before, asked for again. Returns the scheduler's.
     */
    synchronized Callback restore(HeadNodeSession session, RemoteAgent agent, SiteAgentClient client) {
        Optional<RemoteAgent.CallbackPorts> before = known(scheduler)
                .map(c -> new RemoteAgent.CallbackPorts(c.forward(), c.relayPort())).or(agent::callbackPorts);
        Callback back = make(session, client, scheduler, before.map(RemoteAgent.CallbackPorts::forward).orElse(0),
                before.map(RemoteAgent.CallbackPorts::relay).orElse(0));
        RemoteAgent.CallbackPorts now = new RemoteAgent.CallbackPorts(back.forward(), back.relayPort());
        if (!before.equals(Optional.of(now))) {
            agent.rememberCallbackPorts(now);
        }
        for (Map.Entry<Endpoint, Callback> runner : Map.copyOf(known).entrySet()) {
            if (!runner.getKey().equals(scheduler)) {
                make(session, client, runner.getKey(), runner.getValue().forward(), runner.getValue().relayPort());
            }
        }
        return back;
    }

    /**
     * Forwards a head-node port to {@code to} and has the agent relay to it; ports as wanted, 0 for
     * any. Synchronized: the watch (on reconnection) and {@code reachable} (on demand) both make them.
     */
    synchronized Callback make(HeadNodeSession session, SiteAgentClient client, Endpoint to, int wantedForward,
                               int wantedRelay) {
        int forward = forwardBack(session, to, wantedForward);
        RelayAddress relay = client.relay(forward, wantedRelay);
        if (wantedRelay != 0 && relay.port() != wantedRelay) {
            LOG.warn("site {}: relay port {} on {} is taken; launchers told it cannot reach {}:{}", site.name(),
                    wantedRelay, relay.host(), to.host(), to.port());
        }
        Callback back = new Callback(forward, relay.host(), relay.port());
        known.put(to, back);
        return back;
    }

    /** Forwards a head-node loopback port to {@code to} here: {@code wanted} if free, any otherwise. */
    private int forwardBack(HeadNodeSession session, Endpoint to, int wanted) {
        try {
            return session.forwardRemote(wanted, to.host(), to.port());
        } catch (JSchException e) {
            String host = site.ssh().orElseThrow().host();
            LOG.warn("site {}: port {} on {} is taken; launchers told it before cannot call back to {}:{}",
                    site.name(), wanted, host, to.host(), to.port());
            try {
                return session.forwardRemote(0, to.host(), to.port());
            } catch (JSchException again) {
                throw new SshFailure("site " + site.name() + ": " + host + " refuses to forward a port back to "
                        + "this machine (AllowTcpForwarding?): " + again.getMessage(), again);
            }
        }
    }
}
