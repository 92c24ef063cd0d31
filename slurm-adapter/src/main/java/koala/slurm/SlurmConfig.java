package koala.slurm;

import java.util.HashMap;
import java.util.Map;

/**
 * What the adapter needs of the controller's configuration, from {@code scontrol show config}: its version,
 * whether it books memory, and where a finished job's record is kept.
 *
 * @param version        {@code SLURM_VERSION}: 22.05.8
 * @param memoryBooked   {@code SelectTypeParameters} books memory ({@code CR_Core_Memory}, {@code CR_CPU_Memory},
 *                       {@code CR_Memory}, ...): a job's {@code --mem} is taken off its host's {@code RealMemory}
 * @param accounting     {@code AccountingStorageType} is not {@code accounting_storage/none}: {@code sacct} asks
 *                       slurmdbd
 * @param jobCompletions {@code JobCompType} is {@code jobcomp/filetxt}: {@code sacct -c} reads the file it writes
 */
public record SlurmConfig(String version, boolean memoryBooked, boolean accounting, boolean jobCompletions) {

    /** Reads {@code scontrol show config}'s {@code Name = value} lines. */
    public static SlurmConfig parse(String text) {
        Map<String, String> values = new HashMap<>();
        text.lines().forEach(line -> {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        });
        String select = values.getOrDefault("SelectTypeParameters", "");
        String storage = values.getOrDefault("AccountingStorageType", "accounting_storage/none");
        return new SlurmConfig(values.getOrDefault("SLURM_VERSION", "unknown"), select.toUpperCase().contains("MEMORY"),
                !storage.equals("accounting_storage/none"),
                values.getOrDefault("JobCompType", "").equals("jobcomp/filetxt"));
    }

    /**
     * The manager's name and version, as {@link koala.resourcemanager.ResourceManager#system} gives it and Slurm's
     * own {@code sinfo --version} prints it: {@code slurm 22.05.8} (Debian's build says {@code slurm-wlm}).
     */
    public String system() {
        return "slurm " + version;
    }
}
