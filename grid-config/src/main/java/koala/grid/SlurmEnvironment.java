package koala.grid;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where a Slurm cluster's commands are and which cluster they talk to: its {@code slurm.conf}, which
 * {@code sbatch}, {@code squeue} and the others read through {@code SLURM_CONF}.
 *
 * @param conf   the cluster's {@code slurm.conf}
 * @param binDir directory of the Slurm commands
 */
public record SlurmEnvironment(Path conf, Path binDir) {
    public static final Path DEFAULT_CONF = Path.of("/etc/slurm/slurm.conf");
    public static final Path DEFAULT_BIN = Path.of("/usr/bin");

    /** The variables a Slurm command needs for this cluster. */
    public Map<String, String> variables() {
        return Map.of("SLURM_CONF", conf.toString());
    }

    public Path command(String name) {
        return binDir.resolve(name);
    }
}
