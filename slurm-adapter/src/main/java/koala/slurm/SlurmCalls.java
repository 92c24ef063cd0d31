package koala.slurm;

import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import koala.resourcemanager.ManagerFailure;
import koala.resourcemanager.ManagerLost;
import koala.resourcemanager.ManagerUnreachable;
import koala.resourcemanager.ResourceManager.Call;
import koala.resourcemanager.UnknownJob;

/**
 * Slurm's commands as the seam's calls: each timed and tracked while it runs ({@link #oldestCall}), and what a
 * command that failed said turned into the seam's failure, naming the command and Slurm's words.
 *
 * <p>A client that cannot reach the controller says so ({@code Unable to contact slurm controller (connect
 * failure)}, after about ten seconds of retries) or is still trying at its time-out: the controller is gone,
 * {@link ManagerLost} for a call on a job and {@link ManagerUnreachable} for a look at the cluster. {@code
 * Invalid job id specified} is {@link UnknownJob}. Anything else Slurm refuses (an {@code sbatch} asking for
 * more than a node has) is a {@link ManagerFailure} with its reason.
 */
final class SlurmCalls {
    /** What a client prints when the controller does not answer (22.05's {@code slurm_strerror} texts). */
    private static final List<String> UNREACHABLE = List.of("Unable to contact slurm controller",
            "Socket timed out on send/recv operation", "Zero Bytes were transmitted or received",
            "Communication connection failure");
    static final String INVALID_JOB = "Invalid job id specified";

    private final SlurmCommands commands;
    private final Duration timeout;
    private final InstantSource clock;
    private final Map<Long, Call> calls = new ConcurrentHashMap<>();
    private final AtomicLong callIds = new AtomicLong();

    /** @param timeout how long a command may take before it is killed and counts as not answering */
    SlurmCalls(SlurmCommands commands, Duration timeout, InstantSource clock) {
        this.commands = commands;
        this.timeout = timeout;
        this.clock = clock;
    }

    /** Runs a call on a job or the connection: what it printed, or the seam's failure. */
    byte[] ask(String input, String... command) throws ManagerFailure {
        SlurmCommands.Answer answer = run(timeout, input, command);
        String what = String.join(" ", command);
        if (answer.timedOut()) {
            throw new ManagerLost(what + ": Slurm's controller is gone", ManagerUnreachable.silent(what, timeout));
        }
        if (answer.exit() != 0) {
            throw failure(what, answer);
        }
        return answer.out();
    }

    /** As {@link #ask}, for a command whose failure counts whatever it exits with: {@code scancel -v}. */
    SlurmCommands.Answer answer(String... command) throws ManagerFailure {
        SlurmCommands.Answer answer = run(timeout, "", command);
        if (answer.timedOut()) {
            String what = String.join(" ", command);
            throw new ManagerLost(what + ": Slurm's controller is gone", ManagerUnreachable.silent(what, timeout));
        }
        return answer;
    }

    /** Runs a look at the cluster within {@code within}: what it printed, or {@link ManagerUnreachable}. */
    byte[] look(Duration within, String... command) {
        String what = String.join(" ", command);
        SlurmCommands.Answer answer;
        try {
            answer = run(within, "", command);
        } catch (ManagerFailure e) {
            throw new ManagerUnreachable(e.getMessage());
        }
        if (answer.timedOut()) {
            throw ManagerUnreachable.silent(what, within);
        }
        if (answer.exit() != 0) {
            throw new ManagerUnreachable(what + ": " + message(answer, command[0]));
        }
        return answer.out();
    }

    byte[] look(String... command) {
        return look(timeout, command);
    }

    Optional<Call> oldestCall() {
        return calls.values().stream().min((a, b) -> a.started().compareTo(b.started()));
    }

    /** The failure a command's non-zero exit means. */
    static ManagerFailure failure(String what, SlurmCommands.Answer answer) {
        String message = what + ": " + message(answer, what.split(" ")[0]);
        if (unreachable(answer.err())) {
            return new ManagerLost(message, null);
        }
        if (answer.err().contains(INVALID_JOB)) {
            return new UnknownJob(message, null);
        }
        return new ManagerFailure(message);
    }

    static boolean unreachable(String err) {
        return UNREACHABLE.stream().anyMatch(err::contains);
    }

    /**
     * Slurm's reason: the last line it wrote on standard error, without the {@code sbatch: error: } before it
     * ({@code sbatch: error: Batch job submission failed: Requested node configuration is not available}).
     */
    static String message(SlurmCommands.Answer answer, String command) {
        List<String> lines = answer.err().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) {
            return "exited with " + answer.exit();
        }
        return lines.get(lines.size() - 1).replaceFirst("^" + command + ": ", "").replaceFirst("^(fatal|error): ", "");
    }

    private SlurmCommands.Answer run(Duration within, String input, String... command) throws ManagerFailure {
        long id = callIds.incrementAndGet();
        String what = String.join(" ", command);
        calls.put(id, new Call(what, clock.instant()));
        try {
            return commands.run(List.of(command), input, within);
        } catch (IOException e) {
            throw new ManagerFailure("cannot run " + command[0] + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ManagerFailure("interrupted while running " + what, e);
        } finally {
            calls.remove(id);
        }
    }
}
