package koala.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import koala.api.site.MemoryUse;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;
import org.junit.jupiter.api.Test;

/** Slurm's ways for a job to end, as the seam names them. */
class SlurmEndsTest {
    private static final Instant T = Instant.parse("2026-12-06T15:00:00Z");

    @Test
    void aScriptThatExitedOrWasKilledIsToldByItsWaitStatus() {
        // exit 3 is wait status 768; 22.05 calls a batch script killed by SIGKILL a JobLaunchFailure, status 9
        assertThat(SlurmEnds.ended(job("FAILED", SlurmJob.EXITED, 768, 0)).end()).isEqualTo(new JobEnd.Exited(3));
        assertThat(SlurmEnds.ended(job("FAILED", "JobLaunchFailure", 9, 0)).end()).isEqualTo(new JobEnd.Signalled("SIGKILL"));
        assertThat(SlurmEnds.ended(job("COMPLETED", "None", 0, 0)).end()).isEqualTo(new JobEnd.Exited(0));
    }

    @Test
    void slurmsOwnReasonsAreItsWords() {
        assertThat(SlurmEnds.ended(job("TIMEOUT", "None", 15, 0)).end())
                .isEqualTo(new JobEnd.Failed("Slurm stopped it at its time limit (TIMEOUT)"));
        assertThat(SlurmEnds.ended(job("NODE_FAIL", "None", 0, 0)).end())
                .isEqualTo(new JobEnd.Failed("its node failed (NODE_FAIL)"));
        assertThat(SlurmEnds.ended(job("PREEMPTED", "None", 15, 0)).end())
                .isEqualTo(new JobEnd.Deleted("preempted in Slurm by a job of higher priority"));
        assertThat(SlurmEnds.ended(job("BOOT_FAIL", "None", 0, 0)).end())
                .isEqualTo(new JobEnd.Failed("Slurm ended it: BOOT_FAIL"));
    }

    @Test
    void aJobStoppedForItsMemorySaysWhatItClaimed() {
        EndedJob ended = SlurmEnds.ended(job("OUT_OF_MEMORY", "OutOfMemory", 9, 1152));

        assertThat(ended.memory()).isEqualTo(new MemoryUse(1152L, null, true));
        assertThat(ended.memory().describe()).isEqualTo("exceeded its 1.13G memory");
        assertThat(SlurmEnds.ended(job("COMPLETED", "None", 0, 1152)).memory()).isEqualTo(new MemoryUse(1152L, null, false));
    }

    @Test
    void aJobRefusedAtItsStartNeverRanWhateverItsStatus() {
        SlurmJob refused = new SlurmJob("3", "koala-t3", "root", "FAILED", "BadConstraints", 1, "", "", "debug", 1, 0, 0,
                T, T, T);

        assertThat(SlurmEnds.ended(refused).end()).isEqualTo(new JobEnd.Failed(
                "Slurm ended it before it started: FAILED (BadConstraints)"));
        assertThat(SlurmEnds.fromSacct("3", "3|FAILED|0:1|(null)\n")).contains(new JobEnd.Failed(
                "Slurm ended it before it started: FAILED"));
    }

    @Test
    void theJobcompFilesNewestLineOfAnIdIsItsRecord() {
        // Slurm's state wiped, ids began again at 1: the file keeps the old job 1's line above the new one's
        String sacct = "1|FAILED|3:0|n1\n1|CANCELLED by 0|0:0|n2\n";

        assertThat(SlurmEnds.fromSacct("1", sacct))
                .contains(new JobEnd.Deleted("cancelled in Slurm (scancel) before it finished"));
        assertThat(SlurmEnds.fromSacct("1", "1|RUNNING|0:0|n1\n")).isEmpty();
        assertThat(SlurmEnds.fromSacct("2", sacct)).isEmpty();
    }

    private static SlurmJob job(String state, String reason, int waitStatus, long memoryMib) {
        return new SlurmJob("4", "koala-x", "root", state, reason, waitStatus, "n1", "n1", "debug", 1, memoryMib, 0, T, T, T);
    }
}
