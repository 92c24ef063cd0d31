package koala.slurm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.site.PilotNeeds;
import koala.api.site.PilotSpec;

/**
 * A pilot as {@code sbatch} takes it: one task on one node, claiming the node's cores ({@code -c}), memory
 * ({@code --mem}, per node), GPUs ({@code --gres=gpu:N}) and wall time ({@code --time}), pinned to a host
 * ({@code -w}) and charged to an account ({@code -A}) when asked. The command goes in a batch script on
 * {@code sbatch}'s standard input, each word quoted for the shell, after the environment's exports.
 *
 * @param memoryMib 0: no {@code --mem} (the partition's default)
 * @param wallTime  null: no {@code --time} (the partition's limit)
 * @param host      null: any host
 * @param account   null: the user's default account
 */
public record SbatchRequest(String name, String command, List<String> args, Map<String, String> environment,
                            String stdout, String stderr, String workingDirectory, int cores, long memoryMib, int gpus,
                            Duration wallTime, String host, String account) {
    public SbatchRequest {
        args = List.copyOf(args);
        environment = Map.copyOf(environment);
        if (cores < 1) {
            throw new IllegalArgumentException("a pilot claims at least one core, not " + cores);
        }
    }

    /**
     * The pilot {@code spec} as {@code sbatch} takes it: what it claims ({@link PilotSpec#needs()}) in Slurm's
     * options. The site's own request ({@link PilotSpec#nativeSpec()}, {@code site.S.node.nativeSpec}) is not
     * used yet: it is written for SGE on every site so far, and words for {@code sbatch} would need quoting
     * rules of their own.
     */
    public static SbatchRequest of(PilotSpec spec) {
        PilotNeeds needs = spec.needs();
        return new SbatchRequest(spec.name(), spec.command(), spec.args(), spec.env(), spec.stdout(), spec.stderr(),
                spec.workingDirectory(), needs.cores(), needs.memoryMiB(), needs.gpus(), needs.wallTime(), needs.host(),
                needs.account());
    }

    /** {@code sbatch}'s options, with {@code --parsable} so that it prints the job's id alone. */
    public List<String> options() {
        List<String> options = new ArrayList<>(List.of("--parsable", "-J", name, "-N", "1", "-n", "1", "-c",
                Integer.toString(cores)));
        if (memoryMib > 0) {
            options.add("--mem=" + memoryMib + "M");
        }
        if (gpus > 0) {
            options.add("--gres=gpu:" + gpus);
        }
        if (wallTime != null) {
            options.add("--time=" + time(wallTime));
        }
        if (host != null) {
            options.add("-w");
            options.add(host);
        }
        if (account != null) {
            options.add("-A");
            options.add(account);
        }
        options.add("-o");
        options.add(stdout == null ? "/dev/null" : stdout);
        if (stderr != null) {
            options.add("-e");
            options.add(stderr);
        }
        if (workingDirectory != null) {
            options.add("-D");
            options.add(workingDirectory);
        }
        // the pilot's environment is its own, not the submitting agent's
        options.add("--export=NONE");
        return options;
    }

    /** The batch script: the environment exported, then the command run in the shell's place. */
    public String script() {
        StringBuilder script = new StringBuilder("#!/bin/sh\n");
        environment.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("not a variable name: '" + e.getKey() + "'");
            }
            script.append("export ").append(e.getKey()).append('=').append(quoted(e.getValue())).append('\n');
        });
        script.append("exec ").append(quoted(command));
        args.forEach(a -> script.append(' ').append(quoted(a)));
        return script.append('\n').toString();
    }

    /** {@code H:MM:SS}, rounded up to the second. */
    static String time(Duration wallTime) {
        long seconds = wallTime.toSeconds() + (wallTime.toNanosPart() > 0 ? 1 : 0);
        return String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    /** A word for the shell, as it is: single-quoted, each quote in it closed, escaped and reopened. */
    static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
