package koala.slurm;

import static koala.resourcemanager.PilotRules.absolute;
import static koala.resourcemanager.PilotRules.require;

import koala.api.site.PilotSpec;
import koala.resourcemanager.PilotRules;

/**
 * What a pilot request must satisfy before it reaches {@code sbatch}, each failure naming its field. Slurm takes
 * nearly any job name, but the jobcomp file that {@code sacct -c} reads separates its fields with spaces, and
 * {@code sbatch} reads {@code %} in output file names as a pattern ({@code %j} the job's id) and a backslash as
 * turning patterns off: neither may reach it unnoticed.
 */
final class SlurmPilots {
    private SlurmPilots() {
    }

    static void validate(PilotSpec spec) {
        PilotRules.common(spec);
        require(spec.name().matches("[A-Za-z0-9_.+\\-]{1,200}"), "name",
                "'" + spec.name() + "' is not a valid Slurm job name (1 to 200 letters, digits, _ . + -)");
        outputFile(spec.stdout(), "stdout");
        outputFile(spec.stderr(), "stderr");
    }

    private static void outputFile(String path, String field) {
        absolute(path, field);
        require(path == null || !path.contains("%") && !path.contains("\\"), field,
                "'" + path + "': sbatch reads % and \\ in a file name as patterns (%j, %x, ...)");
    }
}
