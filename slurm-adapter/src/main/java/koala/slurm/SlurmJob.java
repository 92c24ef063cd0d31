package koala.slurm;

import java.time.Instant;
import koala.api.site.PilotState;

/**
 * A job as {@code squeue --json} shows it.
 *
 * @param id          Slurm's job id
 * @param state       Slurm's {@code job_state}: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...
 * @param reason      why it is pending, or how it ended ({@code state_reason}: Resources, Priority,
 *                    NonZeroExitCode; None)
 * @param waitStatus  how its batch script ended, as the kernel's wait status: {@code exit 3} is 768, a
 *                    SIGTERM 15 ({@code exit_code})
 * @param nodes       the hosts it runs on, in Slurm's list form ({@code n[1-2]}); empty while pending
 * @param batchHost   the host its batch script runs on (its first); empty while pending
 * @param partition   the partition it runs in, or the ones it waits for ({@code debug,long})
 * @param cpus        the cores it holds (or asks for, while pending)
 * @param memoryMib   the memory it claims per node ({@code --mem}), 0 when it claims none
 * @param gpus        the GPUs it claims per node ({@code --gres=gpu:N}), 0 when none
 * @param submitted   when it was submitted
 * @param started     when it started; null while pending
 * @param ended       when it ended; null until it ends
 */
public record SlurmJob(String id, String name, String user, String state, String reason, int waitStatus, String nodes,
                       String batchHost, String partition, int cpus, long memoryMib, int gpus, Instant submitted,
                       Instant started, Instant ended) {
    /** The reason of a FAILED job whose script ran to its end and exited with another status than 0. */
    public static final String EXITED = "NonZeroExitCode";
    /** The reason of a FAILED job whose script a signal ended. */
    public static final String SIGNALLED = "RaisedSignal";

    /** Where the job is, in KOALA's terms. */
    public PilotState pilotState() {
        return pilotState(state, reason);
    }

    /** Where a job in {@code state}, for {@code reason}, is in KOALA's terms. */
    public static PilotState pilotState(String state, String reason) {
        return switch (state) {
            case "PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESV_DEL_HOLD" -> PilotState.QUEUED;
            case "RUNNING", "COMPLETING", "RESIZING", "SIGNALING", "STAGE_OUT" -> PilotState.RUNNING;
            case "SUSPENDED", "STOPPED" -> PilotState.SUSPENDED;
            case "COMPLETED" -> PilotState.DONE;
            // its script ran to its end with another status than 0: DONE in KOALA's terms, as on SGE
            case "FAILED" -> EXITED.equals(reason) ? PilotState.DONE : PilotState.FAILED;
            case "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY",
                 "SPECIAL_EXIT", "REVOKED" -> PilotState.FAILED;
            default -> PilotState.UNKNOWN;
        };
    }

    /** The exit status its batch script returned; null when a signal ended it. */
    public Integer exitStatus() {
        return (waitStatus & 0x7f) == 0 ? (waitStatus >> 8) & 0xff : null;
    }

    /** The signal that ended it; null when it exited. */
    public Integer signal() {
        return (waitStatus & 0x7f) == 0 ? null : waitStatus & 0x7f;
    }
}
