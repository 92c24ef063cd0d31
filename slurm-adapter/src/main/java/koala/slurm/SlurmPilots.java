package koala.slurm;

import koala.api.site.PilotSpec;
import koala.common.failure.InvalidField;

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
        require(spec.name() != null && !spec.name().isBlank(), "name", "missing");
        require(spec.name().matches("[A-Za-z0-9_.+\\-]{1,200}"), "name",
                "'" + spec.name() + "' is not a valid Slurm job name (1 to 200 letters, digits, _ . + -)");
        require(spec.command() != null && !spec.command().isBlank(), "command", "missing");
        require(spec.command().startsWith("/"), "command", "'" + spec.command() + "' must be an absolute path");
        spec.env().keySet().forEach(k -> require(k.matches("[A-Za-z_][A-Za-z0-9_]*"), "env",
                "'" + k + "' is not a variable name"));
        outputFile(spec.stdout(), "stdout");
        outputFile(spec.stderr(), "stderr");
        absolute(spec.workingDirectory(), "workingDirectory");
        require((spec.secret() == null) == (spec.secretFile() == null), "secretFile",
                "a secret and the file to hand it over in go together");
        require(spec.secret() == null || spec.secret().matches("[A-Za-z0-9_\\-]{1,256}"), "secret",
                "not a token (1 to 256 letters, digits, _ or -)");
        absolute(spec.secretFile(), "secretFile");
    }

    private static void outputFile(String path, String field) {
        absolute(path, field);
        require(path == null || !path.contains("%") && !path.contains("\\"), field,
                "'" + path + "': sbatch reads % and \\ in a file name as patterns (%j, %x, ...)");
    }

    private static void absolute(String path, String field) {
        require(path == null || path.startsWith("/") && !path.contains("\n"), field,
                "'" + path + "' must be an absolute path");
    }

    private static void require(boolean ok, String field, String reason) {
        if (!ok) {
            throw new InvalidField(field, reason);
        }
    }
}
