package koala.api.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a detached agent keeps in its state file (on a remote head node), one fact a line:
 *
 * <pre>
 * agent PORT PID SECRET   while it serves: where, its process, and the secret that reaches it
 * relay TARGET PORT       a relay it runs: PORT on the relay host forwards to TARGET on loopback
 * </pre>
 *
 * The agent line goes when the agent stops; relay lines stay, so that the next agent listens where
 * the last one did and launchers told those ports find them again. The file holds the secret, so
 * the agent writes it readable by its own account only: a scheduler that lost its connection (or
 * crashed) reads it back over SSH, as that account, to re-attach.
 */
public record AgentState(Optional<Serving> serving, List<Relay> relays) {

    /** The agent that serves: its HTTP port on the head node's loopback, its process, its secret. */
    public record Serving(int port, long pid, AgentSecret secret) {
    }

    /** A relay: {@code port} on the relay host forwards each connection to {@code target} on loopback. */
    public record Relay(int target, int port) {
    }

    public AgentState {
        relays = List.copyOf(relays);
    }

    public static AgentState empty() {
        return new AgentState(Optional.empty(), List.of());
    }

    /** Reads the file's text; a line it does not understand (a half-written file, a future one) is skipped. */
    public static AgentState parse(String text) {
        Optional<Serving> serving = Optional.empty();
        List<Relay> relays = new ArrayList<>();
        for (String line : text.lines().toList()) {
            String[] w = line.trim().split("\\s+");
            try {
                if (w.length == 4 && w[0].equals("agent") && serving.isEmpty()) {
                    serving = Optional.of(new Serving(Integer.parseInt(w[1]), Long.parseLong(w[2]), AgentSecret.of(w[3])));
                } else if (w.length == 3 && w[0].equals("relay")) {
                    relays.add(new Relay(Integer.parseInt(w[1]), Integer.parseInt(w[2])));
                }
            } catch (IllegalArgumentException e) {
                // skipped, as documented
            }
        }
        return new AgentState(serving, relays);
    }

    public String text() {
        StringBuilder s = new StringBuilder();
        serving.ifPresent(a -> s.append("agent ").append(a.port()).append(' ').append(a.pid()).append(' ')
                .append(a.secret().value()).append('\n'));
        relays.forEach(r -> s.append("relay ").append(r.target()).append(' ').append(r.port()).append('\n'));
        return s.toString();
    }

    public AgentState serving(Serving agent) {
        return new AgentState(Optional.of(agent), relays);
    }

    /** The same relays with no agent serving: what a stopping agent leaves. */
    public AgentState stopped() {
        return new AgentState(Optional.empty(), relays);
    }

    public AgentState withRelays(List<Relay> all) {
        return new AgentState(serving, all);
    }
}
