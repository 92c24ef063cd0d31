package koala.scheduler.remote;

import com.jcraft.jsch.JSchException;
import java.net.URI;
import java.util.List;
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
 *
 * <p>The head node keeps what a scheduler that is gone made, for the one that connects next (the same
 * started again, or a standby that took over): the scheduler's ports ({@link RemoteAgent#callbackPorts}),
 * and each runner's call-back ({@link RunnerCallback}), written each time they change. {@link #restore}
 * makes them again on their ports; once made they are {@link #known}, so a runner's URL asked for again
 * ({@link #relayFor}) gets the relay its entities' launchers already call, not a second one.
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
    private final java.util.Set<String> schedulerHosts;
    private final Endpoint scheduler;
    private final Map<Endpoint, Callback> known = new java.util.concurrent.ConcurrentHashMap<>();
    /** Runners' call-backs forgotten while their record on the head node may still be there (the link was down). */
    private final java.util.Set<Endpoint> forgotten = new java.util.HashSet<>();
    /** Call-backs that schedulers of other KOALA hosts recorded on the head node: written back as they were. */
    private List<RunnerCallback> foreign = List.of();
    /** Runners' call-backs made again from the head node's record, not yet checked against the live instances. */
    private final java.util.Set<Endpoint> restored = new java.util.HashSet<>();
    /** The runners of the instances the scheduler holds live, once it has reloaded its jobs; null before. */
    private java.util.Set<Endpoint> live;

    /**
     * @param koalaHost the name or address this machine advertises for itself and its runners; URLs
     *                  on it, or on loopback, are the ones relayed
     */
    CallBacks(SiteConfig site, String koalaHost, int schedulerPort) {
        this(site, koalaHost, java.util.Set.of(), schedulerPort);
    }

    /**
     * @param schedulerHosts the hosts of the grid's other schedulers ({@code scheduler.addresses}): a runner
     *                       there (one its user started while this scheduler led from another host) is relayed
     *                       too, this machine reaching it over the grid's network
     */
    CallBacks(SiteConfig site, String koalaHost, java.util.Set<String> schedulerHosts, int schedulerPort) {
        this.site = site;
        this.koalaHost = koalaHost;
        this.schedulerHosts = schedulerHosts.stream().map(h -> h.toLowerCase(Locale.ROOT))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.scheduler = new Endpoint(koalaHost, schedulerPort);
    }

    Endpoint scheduler() {
        return scheduler;
    }

    /**
     * The KOALA-side address a URL names, if it is one the site's nodes need relayed: on loopback, on this
     * machine's advertised host, or on another scheduler's host.
     */
    Optional<Endpoint> endpoint(URI uri) {
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        if (uri.getPort() < 0) {
            return Optional.empty();
        }
        if (host.equals("127.0.0.1") || host.equals("localhost")) {
            return Optional.of(new Endpoint("127.0.0.1", uri.getPort()));
        }
        if (host.equals(koalaHost.toLowerCase(Locale.ROOT))) {
            return Optional.of(new Endpoint(koalaHost, uri.getPort()));
        }
        return schedulerHosts.contains(host) ? Optional.of(new Endpoint(host, uri.getPort())) : Optional.empty();
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
        Optional<Callback> was = to.equals(scheduler) ? Optional.empty() : Optional.ofNullable(known.remove(to));
        was.ifPresent(c -> forgotten.add(to));
        return was;
    }

    /**
     * The call-back to a runner's {@code to}: the one known (made before, or restored from the head node), else
     * one made now and recorded there. SSH work: never on the scheduler's loop.
     */
    synchronized Callback relayFor(HeadNodeSession session, RemoteAgent agent, SiteAgentClient client, Endpoint to) {
        Callback back = known.get(to);
        if (back == null) {
            back = make(session, client, to, 0, 0);
            forgotten.remove(to);
            record(agent);
        }
        restored.remove(to); // a node of a live instance uses it: never stale, whatever the live runners read before
        return back;
    }

    /**
     * Writes the runners' call-backs known now to the head node, beside other hosts' (a runner's forgotten
     * goes from there). A failure is only logged: the call-backs work, and only a scheduler that connects
     * after this one would miss one, which is written again at the next change or reconnection.
     */
    synchronized void record(RemoteAgent agent) {
        try {
            agent.rememberRunnerCallbacks(records());
            forgotten.clear();
        } catch (SshFailure | java.io.UncheckedIOException e) {
            LOG.warn("site {}: runners' call-backs not recorded on the head node: {}", site.name(), e.getMessage());
        }
    }

    /** What the head node should keep: other hosts' call-backs as they were, and this scheduler's runners'. */
    synchronized List<RunnerCallback> records() {
        List<RunnerCallback> all = new java.util.ArrayList<>(foreign);
        known.forEach((to, back) -> {
            if (!to.equals(scheduler)) {
                all.add(new RunnerCallback(to, back.forward(), back.relayPort(), koalaHost));
            }
        });
        all.sort(RunnerCallback.ORDER);
        return all;
    }

    /**
     * Takes in the call-backs the head node recorded (other hosts' are kept, to be written back as they
     * were), and returns the runners' to make again on a (re)connection: those made in this process, and those the
     * head node recorded that a scheduler of this KOALA host made (this one before a restart, or the one a
     * standby here took over from), less those forgotten since; a runner's known here keeps its ports.
     */
    synchronized List<RunnerCallback> read(List<RunnerCallback> recorded) {
        foreign = recorded.stream().filter(r -> !r.madeBy().equals(koalaHost)).toList();
        Map<Endpoint, RunnerCallback> wanted = new java.util.TreeMap<>(java.util.Comparator.comparing(Endpoint::host)
                .thenComparingInt(Endpoint::port));
        recorded.stream().filter(r -> r.madeBy().equals(koalaHost) && !forgotten.contains(r.to()))
                .filter(r -> !r.to().equals(scheduler)).forEach(r -> {
                    if (!stale(r.to()) || known.containsKey(r.to())) {
                        wanted.put(r.to(), r);
                    } else {
                        forgotten.add(r.to()); // its instance ended before this scheduler led: its line goes
                    }
                });
        known.forEach((to, back) -> {
            if (!to.equals(scheduler)) {
                wanted.put(to, new RunnerCallback(to, back.forward(), back.relayPort(), koalaHost));
            }
        });
        return List.copyOf(wanted.values());
    }

    /**
     * After a (re)connection or an agent restart: the scheduler's call-back, on the ports granted
     * before if they are free (kept on the head node across scheduler restarts), and the runners'
     * call-backs made before, in this process or recorded on the head node ({@link #read}), asked
     * for again on their ports and recorded as made. Returns the scheduler's.
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
        restoreRunners(session, agent, client);
        return back;
    }

    /** The runners' call-backs of {@link #read}, made again on their ports; the record rewritten if it changed. */
    private void restoreRunners(HeadNodeSession session, RemoteAgent agent, SiteAgentClient client) {
        List<RunnerCallback> recorded = agent.runnerCallbacks();
        List<RunnerCallback> runners = read(recorded);
        for (RunnerCallback runner : runners) {
            remade(runner.to(), make(session, client, runner.to(), runner.forward(), runner.relayPort()));
        }
        if (!records().equals(recorded.stream().sorted(RunnerCallback.ORDER).toList())) {
            record(agent);
        } else {
            forgotten.clear(); // none of them is recorded
        }
        if (!runners.isEmpty()) {
            LOG.info("site {}: runners' call-backs made again: {}", site.name(), runners.stream()
                    .map(r -> r.to().host() + ":" + r.to().port() + " on " + known.get(r.to()).authority()).toList());
        }
    }

    /**
     * The scheduler has reloaded its jobs: {@code liveRunners} are the runners' addresses of the instances it holds
     * live. The call-backs made again from the head node's record for any other runner (its instance ended while no
     * scheduler was connected here, or its runner was replaced elsewhere) are forgotten and returned, for their relays
     * and forwards to be closed; a record read later keeps only the live ones. Those made or asked for by a node
     * since are not touched: a live instance's node uses them (so that {@code liveRunners}, read on the loop, may
     * be older than this call, made off it).
     */
    synchronized List<Callback> keepOnly(java.util.Set<String> liveRunners) {
        live = new java.util.HashSet<>();
        liveRunners.forEach(url -> endpoint(URI.create(url)).ifPresent(live::add));
        List<Callback> stale = new java.util.ArrayList<>();
        for (Endpoint to : List.copyOf(restored)) {
            if (stale(to)) {
                forget(to).ifPresent(stale::add);
            }
        }
        restored.clear();
        return stale;
    }

    /** Whether {@code to} is the runner of no instance the scheduler holds live (never, before it reloaded its jobs). */
    private boolean stale(Endpoint to) {
        return live != null && !live.contains(to);
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
        made(to, back);
        return back;
    }

    /** {@code back} leads to {@code to} from now on. */
    synchronized void made(Endpoint to, Callback back) {
        known.put(to, back);
    }

    /** {@code back}, made again from the head node's record, leads to {@code to}: to be checked by {@link #keepOnly}. */
    synchronized void remade(Endpoint to, Callback back) {
        made(to, back);
        restored.add(to);
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
