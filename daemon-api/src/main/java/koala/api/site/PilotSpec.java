package koala.api.site;

import java.util.List;
import java.util.Map;

/**
 * A pilot job to submit to a cell: what one KOALA node runs.
 *
 * @param name       SGE job name; KOALA's pilots start with {@link #PREFIX}
 * @param command    the executable, an absolute path on the execution host
 * @param nativeSpec DRMAA native specification, e.g. the site's request for one exclusive node
 * @param stdout     file for the job's standard output on the execution host (default: discarded)
 * @param stderr     file for standard error (default: joined with standard output)
 * @param workingDirectory where the job starts (default: the agent account's home)
 * @param secret     a secret for the pilot (its node's token), or null: never put in the job's
 *                   environment or arguments, which {@code qstat -j} shows every user
 * @param secretFile where the agent writes {@code secret} before submitting, as a new file only the
 *                   pilot's account reads (0600), in a directory only that account writes; the pilot
 *                   reads it and deletes it
 */
public record PilotSpec(String name, String command, List<String> args, Map<String, String> env,
                        String nativeSpec, String stdout, String stderr, String workingDirectory, String secret,
                        String secretFile) {
    public static final String PREFIX = "koala-";

    public PilotSpec {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
    }

    public static PilotSpec of(String name, String command, String... args) {
        return new PilotSpec(name, command, List.of(args), Map.of(), null, null, null, null, null, null);
    }

    public PilotSpec withNativeSpec(String spec) {
        return new PilotSpec(name, command, args, env, spec, stdout, stderr, workingDirectory, secret, secretFile);
    }

    public PilotSpec withOutput(String out, String err) {
        return new PilotSpec(name, command, args, env, nativeSpec, out, err, workingDirectory, secret, secretFile);
    }

    public PilotSpec withEnv(Map<String, String> variables) {
        return new PilotSpec(name, command, args, variables, nativeSpec, stdout, stderr, workingDirectory, secret,
                secretFile);
    }

    /** Its secret handed over in this file (see {@code secret}). */
    public PilotSpec withSecret(String value, String file) {
        return new PilotSpec(name, command, args, env, nativeSpec, stdout, stderr, workingDirectory, value, file);
    }

    @Override
    public String toString() {
        return "PilotSpec[" + name + ": " + command + " " + args + (secret == null ? "" : ", a secret in " + secretFile)
                + "]";
    }
}
