package koala.api.site;

import java.util.List;
import java.util.Map;

/**
 * A pilot job to submit to a cell: what one KOALA node runs.
 *
 * @param name       the job's name; KOALA's pilots start with {@link #PREFIX}
 * @param command    the executable, an absolute path on the execution host
 * @param needs      what the pilot claims of its host, which the site's resource manager says in its own words
 *                   (absent: {@link PilotNeeds#NODE}, nothing beyond one core)
 * @param nativeSpec the site's own request for one node in its manager's words ({@code site.S.node.nativeSpec}),
 *                   passed to the manager as it is, before what {@code needs} claims (null: the site's default)
 * @param stdout     file for the job's standard output on the execution host (default: discarded)
 * @param stderr     file for standard error (default: joined with standard output)
 * @param workingDirectory where the job starts (default: the agent account's home)
 * @param secret     a secret for the pilot (its node's token), or null: never put in the job's
 *                   environment or arguments, which {@code qstat -j} shows every user
 * @param secretFile where the agent writes {@code secret} before submitting, as a new file only the
 *                   pilot's account reads (0600), in a directory only that account writes; the pilot
 *                   reads it and deletes it
 */
public record PilotSpec(String name, String command, List<String> args, Map<String, String> env, PilotNeeds needs,
                        String nativeSpec, String stdout, String stderr, String workingDirectory, String secret,
                        String secretFile) {
    public static final String PREFIX = "koala-";

    public PilotSpec {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        needs = needs == null ? PilotNeeds.NODE : needs;
    }

    public static PilotSpec of(String name, String command, String... args) {
        return new PilotSpec(name, command, List.of(args), Map.of(), null, null, null, null, null, null, null);
    }

    /** The same pilot claiming {@code claim} of its host. */
    public PilotSpec withNeeds(PilotNeeds claim) {
        return new PilotSpec(name, command, args, env, claim, nativeSpec, stdout, stderr, workingDirectory, secret,
                secretFile);
    }

    public PilotSpec withNativeSpec(String spec) {
        return new PilotSpec(name, command, args, env, needs, spec, stdout, stderr, workingDirectory, secret, secretFile);
    }

    public PilotSpec withOutput(String out, String err) {
        return new PilotSpec(name, command, args, env, needs, nativeSpec, out, err, workingDirectory, secret, secretFile);
    }

    public PilotSpec withEnv(Map<String, String> variables) {
        return new PilotSpec(name, command, args, variables, needs, nativeSpec, stdout, stderr, workingDirectory, secret,
                secretFile);
    }

    /** Its secret handed over in this file (see {@code secret}). */
    public PilotSpec withSecret(String value, String file) {
        return new PilotSpec(name, command, args, env, needs, nativeSpec, stdout, stderr, workingDirectory, value, file);
    }

    @Override
    public String toString() {
        return "PilotSpec[" + name + ": " + command + " " + args + (secret == null ? "" : ", a secret in " + secretFile)
                + "]";
    }
}
