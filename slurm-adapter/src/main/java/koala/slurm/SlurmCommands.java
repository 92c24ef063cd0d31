package koala.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Runs Slurm's client commands ({@code sbatch}, {@code scancel}, {@code squeue}, {@code sinfo}, {@code scontrol},
 * {@code sacct}) and hands back what they said, whatever it was: what a failure means is decided by
 * {@link SlurmCalls}, so unit tests feed it answers captured from a real Slurm.
 */
public interface SlurmCommands {
    /**
     * What one command did.
     *
     * @param exit its exit status; null when it had not ended at its time-out and was killed
     * @param out  its standard output
     * @param err  its standard error
     */
    record Answer(Integer exit, byte[] out, String err) {
        /** A command that said this and exited 0. */
        public static Answer ok(String out) {
            return new Answer(0, out.getBytes(StandardCharsets.UTF_8), "");
        }

        /** A command that said this on its standard error and exited with {@code exit}. */
        public static Answer failed(int exit, String err) {
            return new Answer(exit, new byte[0], err);
        }

        /** A command still running at its time-out. */
        public static Answer silent() {
            return new Answer(null, new byte[0], "");
        }

        public boolean timedOut() {
            return exit == null;
        }

        public String outText() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    /**
     * Runs {@code command} (its name, then its arguments) with {@code input} on its standard input, and
     * kills it, with anything it started, if it has not ended within {@code timeout}.
     *
     * @throws IOException when it cannot be started at all
     */
    Answer run(List<String> command, String input, Duration timeout) throws IOException, InterruptedException;

    /** The commands in {@code binDir}, run as this process's children with {@code SLURM_CONF=slurmConf}. */
    static SlurmCommands local(Path binDir, Path slurmConf) {
        return new LocalSlurmCommands(binDir, slurmConf);
    }
}
