package koala.slurm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import koala.process.Completion;

/**
 * Slurm's commands as child processes: from the cluster's bin directory, with {@code SLURM_CONF} naming its
 * configuration (so the agent needs no {@code /etc/slurm} of its own), each killed at its time-out: a
 * client whose controller is gone keeps retrying for about ten seconds.
 */
final class LocalSlurmCommands implements SlurmCommands {
    private final Path binDir;
    private final Path slurmConf;

    LocalSlurmCommands(Path binDir, Path slurmConf) {
        this.binDir = binDir;
        this.slurmConf = slurmConf;
    }

    @Override
    public Answer run(List<String> command, String input, Duration timeout) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(command);
        line.set(0, binDir.resolve(command.get(0)).toString());
        ProcessBuilder builder = new ProcessBuilder(line);
        builder.environment().put("SLURM_CONF", slurmConf.toString());
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8)); // a batch script: well within a pipe's buffer
        } catch (IOException e) {
            // it ended without reading its input: what it said tells why
        }
        return Completion.await(process, timeout, command.get(0))
                .map(o -> new Answer(process.exitValue(), o.out(), o.errText()))
                .orElseGet(Answer::silent);
    }
}
