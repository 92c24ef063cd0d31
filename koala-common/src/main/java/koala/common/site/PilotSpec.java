package koala.common.site;

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
 */
public record PilotSpec(String name, String command, List<String> args, Map<String, String> env,
                        String nativeSpec, String stdout, String stderr, String workingDirectory) {
    public static final String PREFIX = "koala-";

    public PilotSpec {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
    }

    public static PilotSpec of(String name, String command, String... args) {
        return new PilotSpec(name, command, List.of(args), Map.of(), null, null, null, null);
    }

    public PilotSpec withNativeSpec(String spec) {
        return new PilotSpec(name, command, args, env, spec, stdout, stderr, workingDirectory);
    }

    public PilotSpec withOutput(String out, String err) {
        return new PilotSpec(name, command, args, env, nativeSpec, out, err, workingDirectory);
    }

    public PilotSpec withEnv(Map<String, String> variables) {
        return new PilotSpec(name, command, args, variables, nativeSpec, stdout, stderr, workingDirectory);
    }
}
