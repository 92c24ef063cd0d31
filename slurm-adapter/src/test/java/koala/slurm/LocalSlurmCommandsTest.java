package koala.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner as it runs commands: from the bin directory, with {@code SLURM_CONF}, killed at its time-out. */
class LocalSlurmCommandsTest {
    @TempDir
    Path bin;

    @Test
    void aCommandGetsItsInputAndTheConfigurationAndItsAnswerIsKept() throws Exception {
        script("sbatch", "cat >&2; echo \"$SLURM_CONF $*\"; exit 1");

        SlurmCommands.Answer answer = SlurmCommands.local(bin, Path.of("/etc/slt/slurm.conf"))
                .run(List.of("sbatch", "--parsable", "-J", "x y"), "#!/bin/sh\ntrue\n", Duration.ofSeconds(10));

        assertThat(answer.exit()).isEqualTo(1);
        assertThat(answer.outText()).isEqualTo("/etc/slt/slurm.conf --parsable -J x y\n");
        assertThat(answer.err()).isEqualTo("#!/bin/sh\ntrue\n");
    }

    @Test
    void aCommandStillRunningAtItsTimeOutIsKilled() throws Exception {
        Path pid = bin.resolve("pid");
        script("squeue", "echo $$ > " + pid + "; exec sleep 30");

        SlurmCommands.Answer answer = SlurmCommands.local(bin, Path.of("/etc/slt/slurm.conf"))
                .run(List.of("squeue", "--json"), "", Duration.ofMillis(300));

        assertThat(answer.timedOut()).isTrue();
        long sleeper = Long.parseLong(Files.readString(pid).strip());
        assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::onExit).orElse(null))
                .satisfiesAnyOf(p -> assertThat(p).isNull(), p -> assertThat(p).succeedsWithin(Duration.ofSeconds(2)));
    }

    private void script(String name, String body) throws Exception {
        Path file = bin.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
