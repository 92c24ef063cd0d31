package koala.scheduler.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The testbed's hosts and their processes, for the integration tests that find a process on a host
 * and signal it. A testbed host is a network namespace named after it ({@code fs1-head},
 * {@code fs1-n3}, ...: {@code SITE-...}), so its processes are {@code ip netns pids HOST}; a process
 * is told apart by its command line ({@code /proc/PID/cmdline}); signals go with {@code kill}.
 *
 * <p>Each command is given {@link #WITHIN} to end, then is killed and the call fails naming the
 * command (host, signal, pids) and what it printed; so does a command that exits other than 0, except
 * where a method says otherwise. Failures are {@link IOException}s, as when the command cannot start.
 */
final class TestHosts {
    /** How long a command ({@code ip netns ...}, {@code kill}) is given to end. */
    static final Duration WITHIN = Duration.ofSeconds(10);

    /** The signals the tests send. */
    enum Signal { KILL, STOP, CONT }

    private TestHosts() {
    }

    /** The hosts of {@code site}: the network namespaces named {@code SITE-...}, in {@code ip netns list}'s order. */
    static List<String> hostsOf(String site) throws IOException, InterruptedException {
        return run(WITHIN, "ip", "netns", "list").checked().lines().map(l -> l.split("\\s+")[0])
                .filter(h -> h.startsWith(site + "-")).toList();
    }

    /** The pids of the processes on {@code host}, in {@code ip netns pids}'s order. */
    static List<Long> pids(String host) throws IOException, InterruptedException {
        List<Long> pids = new ArrayList<>();
        for (String pid : run(WITHIN, "ip", "netns", "pids", host).checked().split("\\s+")) {
            if (!pid.isBlank()) {
                pids.add(Long.parseLong(pid.trim()));
            }
        }
        return pids;
    }

    /** The command line of process {@code pid}, its arguments joined by spaces; empty once it has ended. */
    static Optional<String> commandLine(long pid) {
        try {
            return Optional.of(new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")))
                    .replace('\0', ' '));
        } catch (IOException gone) {
            return Optional.empty();
        }
    }

    /**
     * The first process on {@code host} whose command line {@code matches}, in {@code ip netns pids}'s
     * order; processes that end meanwhile are passed over.
     */
    static OptionalLong find(String host, Predicate<String> matches) throws IOException, InterruptedException {
        for (long pid : pids(host)) {
            if (commandLine(pid).filter(matches).isPresent()) {
                return OptionalLong.of(pid);
            }
        }
        return OptionalLong.empty();
    }

    /** Sends {@code signal} to {@code pid}; fails unless {@code kill} says it was sent. */
    static void signal(Signal signal, long pid) throws IOException, InterruptedException {
        run(WITHIN, kill(signal, List.of(pid))).checked();
    }

    /**
     * Sends {@code signal} to each of {@code pids} with one {@code kill}, where a process that has
     * ended meanwhile is no matter: {@code kill}'s exit status is not checked (what it says is printed).
     */
    static void signalThoseLeft(Signal signal, List<Long> pids) throws IOException, InterruptedException {
        Ran ran = run(WITHIN, kill(signal, pids));
        if (ran.exit() != 0) {
            System.err.println(ran.describe());
        }
    }

    private static List<String> kill(Signal signal, List<Long> pids) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal.name()));
        pids.forEach(p -> command.add(Long.toString(p)));
        return command;
    }

    private static Ran run(Duration within, String... command) throws IOException, InterruptedException {
        return run(within, List.of(command));
    }

    /**
     * Runs {@code command}, its output and errors going to a file (so that it never waits on a pipe no
     * one reads), and gives it {@code within} to end; one that does not is killed, and the call fails.
     */
    static Ran run(Duration within, List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("koala-test-hosts-", ".out");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException("`" + String.join(" ", command) + "` did not end within " + within.toMillis()
                        + " ms (killed); it printed: " + printed(out).strip());
            }
            return new Ran(command, p.exitValue(), printed(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String printed(Path out) throws IOException {
        return new String(Files.readAllBytes(out));
    }

    /** A command that ended: its exit status and what it printed (output and errors). */
    record Ran(List<String> command, int exit, String output) {
        /** Its output; fails, naming the command, unless it exited with 0. */
        String checked() throws IOException {
            if (exit != 0) {
                throw new IOException(describe());
            }
            return output;
        }

        String describe() {
            return "`" + String.join(" ", command) + "` exited with " + exit + ": " + output.strip();
        }
    }
}
