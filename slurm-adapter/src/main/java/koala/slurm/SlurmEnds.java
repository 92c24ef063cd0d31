package koala.slurm;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.site.MemoryUse;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;

/**
 * How a Slurm job ended, in the seam's terms ({@link JobEnd}), from {@code squeue --json} while the controller
 * still lists it or from {@code sacct} after.
 *
 * <p>A FAILED job's script ran and exited non-zero ({@code NonZeroExitCode}, {@link JobEnd.Exited}) or a signal
 * ended it ({@link JobEnd.Signalled}: 22.05 says {@code JobLaunchFailure} for a batch script killed by SIGKILL,
 * its wait status 9, so the wait status decides, not the reason); a job {@code scancel} took out is CANCELLED,
 * {@link JobEnd.Deleted}; the rest are Slurm's own reasons to end a job, {@link JobEnd.Failed} in its words.
 * {@code sacct} gives no reason, only {@code ExitCode} as {@code status:signal}, and its {@code NodeList}, which
 * is {@code None assigned} or {@code (null)} for a job that never ran; {@code squeue} an empty {@code nodes}
 * (its {@code start_time} is set all the same: a job refused for {@code BadConstraints} "started" as it ended).
 */
final class SlurmEnds {
    private static final Map<Integer, String> SIGNALS = Map.ofEntries(Map.entry(1, "SIGHUP"), Map.entry(2, "SIGINT"),
            Map.entry(3, "SIGQUIT"), Map.entry(4, "SIGILL"), Map.entry(6, "SIGABRT"), Map.entry(7, "SIGBUS"),
            Map.entry(8, "SIGFPE"), Map.entry(9, "SIGKILL"), Map.entry(10, "SIGUSR1"), Map.entry(11, "SIGSEGV"),
            Map.entry(12, "SIGUSR2"), Map.entry(13, "SIGPIPE"), Map.entry(14, "SIGALRM"), Map.entry(15, "SIGTERM"));

    private SlurmEnds() {
    }

    /** An ended job as {@code squeue --json} lists it, with its memory claim and whether Slurm stopped it for it. */
    static EndedJob ended(SlurmJob job) {
        JobEnd end = end(job.state(), job.reason(), job.exitStatus() == null ? 0 : job.exitStatus(),
                job.signal() == null ? 0 : job.signal(), !job.nodes().isEmpty());
        MemoryUse memory = job.memoryMib() > 0
                ? new MemoryUse(job.memoryMib(), null, job.state().equals("OUT_OF_MEMORY")) : null;
        return new EndedJob(job.id(), end, memory);
    }

    /**
     * The end of job {@code id} from {@code sacct -P -n -o JobID,State,ExitCode,NodeList} (with {@code -c} or
     * {@code -X}); when the jobcomp file holds the id twice (Slurm's state was wiped and ids began again at 1),
     * its last line, the newest. Empty when no line is the job's.
     */
    static Optional<JobEnd> fromSacct(String id, String sacct) {
        List<String[]> lines = sacct.lines().map(l -> l.split("\\|", -1)).filter(f -> f.length >= 4 && f[0].equals(id))
                .toList();
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        String[] f = lines.get(lines.size() - 1);
        String state = f[1].split(" ")[0]; // "CANCELLED by 0"
        String[] code = f[2].split(":");
        int exit = Integer.parseInt(code[0]);
        int signal = code.length > 1 ? Integer.parseInt(code[1]) : 0;
        boolean ran = !f[3].isBlank() && !f[3].equals("(null)") && !f[3].startsWith("None");
        String reason = !ran ? "" : signal != 0 ? SlurmJob.SIGNALLED : exit != 0 ? SlurmJob.EXITED : "";
        return SlurmJob.pilotState(state, reason).isFinal() ? Optional.of(end(state, reason, exit, signal, ran))
                : Optional.empty();
    }

    /** A job that ended in {@code state} for {@code reason}, its script having exited with {@code exit} or {@code signal}. */
    static JobEnd end(String state, String reason, int exit, int signal, boolean ran) {
        if (!ran && !state.equals("CANCELLED")) {
            return new JobEnd.Failed("Slurm ended it before it started: " + state + words(reason));
        }
        return switch (state) {
            case "COMPLETED" -> new JobEnd.Exited(exit);
            case "FAILED" -> failed(reason, exit, signal);
            case "CANCELLED" -> new JobEnd.Deleted("cancelled in Slurm (scancel) before it finished");
            case "PREEMPTED" -> new JobEnd.Deleted("preempted in Slurm by a job of higher priority");
            case "TIMEOUT" -> new JobEnd.Failed("Slurm stopped it at its time limit (TIMEOUT)");
            case "OUT_OF_MEMORY" -> new JobEnd.Failed("Slurm stopped it for using more memory than it claimed"
                    + " (OUT_OF_MEMORY)");
            case "NODE_FAIL" -> new JobEnd.Failed("its node failed (NODE_FAIL)");
            default -> new JobEnd.Failed("Slurm ended it: " + state + words(reason));
        };
    }

    private static JobEnd failed(String reason, int exit, int signal) {
        if (SlurmJob.EXITED.equals(reason)) {
            return new JobEnd.Exited(exit);
        }
        if (SlurmJob.SIGNALLED.equals(reason) || signal != 0) {
            return new JobEnd.Signalled(SIGNALS.getOrDefault(signal, Integer.toString(signal)));
        }
        return new JobEnd.Failed("Slurm ended it: FAILED" + words(reason));
    }

    private static String words(String reason) {
        return reason == null || reason.isEmpty() || reason.equals("None") ? "" : " (" + reason + ")";
    }
}
