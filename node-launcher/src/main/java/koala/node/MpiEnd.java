package koala.node;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Open MPI's {@code mpirun} says on its standard error when a rank ends the world: which rank
 * (its name {@code [[job,step],rank]} and exit code, or the rank, node and signal that killed it).
 * The rank's host is its place in the job's host list, which is in rank order.
 */
final class MpiEnd {
    private static final Pattern NAME = Pattern.compile("Process name:\\s*\\[\\[\\d+,\\d+],(\\d+)]");
    private static final Pattern CODE = Pattern.compile("Exit code:\\s*(-?\\d+)");
    private static final Pattern SIGNAL = Pattern.compile(
            "process rank (\\d+) with PID \\d+ on node (\\S+) exited on signal (\\d+)(?: \\(([^)]*)\\))?");

    private final List<String> hosts;
    private Integer rank;
    private Integer code;
    private String host;
    private Integer signal;
    private String signalName;

    /** @param hosts the job's hosts in rank order (a host once per rank it runs) */
    MpiEnd(List<String> hosts) {
        this.hosts = hosts;
    }

    /** Reads one line of mpirun's standard error; the first rank named is the one that ended the world. */
    synchronized void line(String line) {
        Matcher m;
        if (rank == null && (m = NAME.matcher(line)).find()) {
            rank = Integer.parseInt(m.group(1));
        } else if (rank != null && code == null && signal == null && (m = CODE.matcher(line)).find()) {
            code = Integer.parseInt(m.group(1));
        } else if (rank == null && (m = SIGNAL.matcher(line)).find()) {
            rank = Integer.parseInt(m.group(1));
            host = m.group(2);
            signal = Integer.parseInt(m.group(3));
            signalName = m.group(4);
        }
    }

    /** "rank 2 on fs1-n3 exited with status 3", or how it was killed; empty when mpirun named no rank. */
    synchronized Optional<String> detail() {
        if (rank == null || (code == null && signal == null)) {
            return Optional.empty();
        }
        String on = host != null ? host : rank < hosts.size() ? hosts.get(rank) : "an unknown host";
        return Optional.of("mpirun: rank " + rank + " on " + on + (signal != null ? " was killed by signal " + signal
                + (signalName == null ? "" : " (" + signalName + ")") : " exited with status " + code)
                + ", which ended the MPI world");
    }
}
