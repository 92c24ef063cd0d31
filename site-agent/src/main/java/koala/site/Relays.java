package koala.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import koala.api.site.AgentState;
import koala.api.site.RelayAddress;
import koala.common.failure.InvalidField;
import koala.common.failure.Unavailable;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The relays of a remote site's agent, on the head node's cluster-facing address, so that pilots
 * on compute nodes (other hosts) reach the KOALA host through the SSH remote forwards, which listen
 * on the head node's loopback only. Each relay is kept in the agent's state file, and a restarted
 * agent opens them again on the same ports: launchers were told those.
 *
 * <p>{@link #open} is idempotent, so the scheduler asks again after each reconnection:
 * <ol>
 *   <li>a relay already on the port asked for is kept there and pointed at the target asked for
 *       (the SSH forward may have been granted another port this time), and the connections it holds
 *       are closed: they lead to the forward of a session that is gone, even when the new one has its
 *       port, so their callers call again ({@link Relay#pointAt});</li>
 *   <li>else a relay already to the target is returned;</li>
 *   <li>else a new one listens on the port asked for, or on any port if that is 0 or taken.</li>
 * </ol>
 * A runner's relay is closed when its framework instance ends ({@link #close(int)}).
 */
final class Relays implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(Relays.class);

    private final String host;
    private final InetAddress bind;
    private final Optional<AgentStateFile> state;
    private final Semaphore connections;
    private final ExecutorService workers;
    private final Duration connectTimeout;
    private final List<Relay> relays = new ArrayList<>();

    /**
     * @param host           the head node's name or address as compute nodes reach it; what callers are told
     * @param bind           the local address {@code host} stands for, where the relays listen
     * @param maxConnections the most connections relayed at once, over all relays
     */
    Relays(String host, InetAddress bind, Optional<AgentStateFile> state, int maxConnections, ExecutorService workers,
           Duration connectTimeout) {
        this.host = host;
        this.bind = bind;
        this.state = state;
        this.connections = new Semaphore(maxConnections);
        this.workers = workers;
        this.connectTimeout = connectTimeout;
        if (bind.isLoopbackAddress()) {
            LOG.warn("relay host {} is {} here, a loopback address: compute nodes cannot reach the relays; set "
                    + "site.S.ssh.relayHost to the head node's name or address on the cluster network", host, bind);
        }
    }

    /** Opens the relays a previous agent kept in the state file, each on its port if that is free. */
    synchronized void restore() {
        state.ifPresent(f -> f.read().relays().forEach(r -> open(r.target(), r.port())));
    }

    /** The relay to {@code target}, by the rules in the class comment. */
    synchronized RelayAddress open(int target, int port) {
        check(target, port);
        Optional<Relay> onPort = relays.stream().filter(r -> port > 0 && r.port() == port).findFirst();
        if (onPort.isPresent()) {
            Relay relay = onPort.get();
            int before = relay.target();
            LOG.info("relay on port {} now leads to port {} (was {}); the {} connections it held are closed", port,
                    target, before, relay.connections());
            relay.pointAt(target);
            if (before != target) {
                save();
            }
            return address(relay);
        }
        Optional<Relay> toTarget = relays.stream().filter(r -> r.target() == target).findFirst();
        if (toTarget.isPresent()) {
            return address(toTarget.get());
        }
        Relay relay = listen(target, port);
        relays.add(relay);
        save();
        LOG.info("relay {}:{} -> loopback port {}", host, relay.port(), target);
        return address(relay);
    }

    /**
     * Closes the relay on {@code port} (its instance ended: nothing will call back through it again),
     * and forgets it, so that a restarted agent does not open it again; empty when none listens there.
     */
    synchronized Optional<RelayAddress> close(int port) {
        Optional<Relay> relay = relays.stream().filter(r -> r.port() == port).findFirst();
        relay.ifPresent(r -> {
            relays.remove(r);
            r.close();
            save();
            LOG.info("relay {}:{} -> loopback port {} closed", host, port, r.target());
        });
        return relay.map(this::address);
    }

    synchronized List<RelayAddress> all() {
        return relays.stream().map(this::address).toList();
    }

    private Relay listen(int target, int port) {
        try {
            try {
                return new Relay(bind, port, target, connections, workers, connectTimeout);
            } catch (BindException e) {
                if (port == 0) {
                    throw e;
                }
                LOG.warn("relay port {} on {} is taken ({}); launchers told it cannot reach port {} through it",
                        port, host, e.getMessage(), target);
                return new Relay(bind, 0, target, connections, workers, connectTimeout);
            }
        } catch (IOException e) {
            throw new Unavailable("cannot listen on " + host + " (" + bind.getHostAddress() + "): " + e.getMessage());
        }
    }

    private static void check(int target, int port) {
        if (target < 1 || target > 65535) {
            throw new InvalidField("target", target + " is not a port (1..65535)");
        }
        if (port < 0 || port > 65535) {
            throw new InvalidField("port", port + " is not a port (0..65535, 0 for any)");
        }
    }

    private void save() {
        try {
            state.ifPresent(f -> f.update(s -> s.withRelays(relays.stream()
                    .map(r -> new AgentState.Relay(r.target(), r.port())).toList())));
        } catch (UncheckedIOException e) {
            LOG.warn("relays not saved: {}; a restarted agent will not know them", e.getMessage());
        }
    }

    private RelayAddress address(Relay r) {
        return new RelayAddress(host, r.port(), r.target());
    }

    @Override
    public synchronized void close() {
        relays.forEach(Relay::close);
        workers.shutdownNow();
    }
}
