package koala.scheduler.remote;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A framework runner's call-back as a remote site's head node keeps it ({@code callback-S.runners} in the
 * agent's directory), one line each:
 *
 * <pre>
 * koala-host:41234 45002 47401 koala-host
 * ENDPOINT         FORWARD RELAY MADE-BY
 * </pre>
 *
 * <p>The runner's address on the KOALA side, the head node's loopback port forwarded to it, the relay's
 * port that the site's nodes were told, and the KOALA host of the scheduler that made it. Launchers of
 * the runner's entities keep calling the relay's port after the scheduler that made it is gone (killed
 * and started again, or taken over from by a standby): whichever scheduler connects next makes the
 * call-back again on the same ports. Only one of the same KOALA host does: an endpoint on loopback, or
 * the runner behind it, means nothing on another host.
 */
record RunnerCallback(CallBacks.Endpoint to, int forward, int relayPort, String madeBy) {
    /** The order of the file's lines: by endpoint, so that the same call-backs always read the same. */
    static final Comparator<RunnerCallback> ORDER = Comparator.comparing((RunnerCallback r) -> r.to().host())
            .thenComparingInt(r -> r.to().port());

    String line() {
        return to.host() + ":" + to.port() + " " + forward + " " + relayPort + " " + madeBy;
    }

    /** One line of the file; empty for one that is not a call-back (blank, or cut short by a full disk). */
    static Optional<RunnerCallback> parse(String line) {
        String[] w = line.trim().split("\\s+");
        int colon = w[0].lastIndexOf(':');
        if (w.length != 4 || colon < 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new RunnerCallback(new CallBacks.Endpoint(w[0].substring(0, colon),
                    Integer.parseInt(w[0].substring(colon + 1))), Integer.parseInt(w[1]), Integer.parseInt(w[2]), w[3]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The file's call-backs, skipping lines that are not one. */
    static List<RunnerCallback> parseAll(String text) {
        return text.lines().map(RunnerCallback::parse).flatMap(Optional::stream).toList();
    }

    /** The file's text: a line each, in {@link #ORDER}; nothing for none. */
    static String format(List<RunnerCallback> callbacks) {
        return callbacks.stream().sorted(ORDER).map(r -> r.line() + "\n").collect(Collectors.joining());
    }
}
