package koala.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * The plain forms of the user commands, read without picocli: {@code submit [--wait] [--json] [--dry-run]
 * FILE...}, {@code jobs [--json]}, {@code status [--json] JOB}, {@code cancel JOB...},
 * {@code sites [--json]}, each with {@code --config FILE}, {@code --scheduler URL} and {@code --as USER}, options
 * anywhere. Picocli's start is a quarter of such a call: its classes are compiled for Java 5,
 * older than a class-data archive takes, and it builds its model of a command from the
 * annotations. Everything else — help, version, {@code --option=value}, {@code --}, {@code @file}
 * arguments, an unknown or repeated option, a missing or extra argument, a JOB that is not a
 * number — is left to picocli ({@link #parse} is empty), which reads it as it always did and says
 * what is wrong. The commands are the same objects, their fields set as picocli sets them;
 * {@code QuickArgsTest} holds this table to picocli's model of each command.
 */
final class QuickArgs {
    /** Options with a value, from {@link GridOptions}; every user command has them. */
    static final Set<String> VALUE_OPTIONS = Set.of("--config", "--scheduler", "--as");

    /** What a command takes besides {@link #VALUE_OPTIONS}: flags, and how many positional arguments. */
    record Shape(Set<String> flags, int minArgs, int maxArgs) {
    }

    private QuickArgs() {
    }

    static Optional<Shape> shape(String command) {
        return Optional.ofNullable(switch (command) {
            case "submit" -> new Shape(Set.of("--wait", "--json", "--dry-run"), 1, Integer.MAX_VALUE);
            case "jobs", "sites" -> new Shape(Set.of("--json"), 0, 0);
            case "status" -> new Shape(Set.of("--json"), 1, 1);
            case "cancel" -> new Shape(Set.of(), 1, Integer.MAX_VALUE);
            default -> null;
        });
    }

    /** The command {@code args} asks for, ready to call; empty when picocli should read them. */
    static Optional<Callable<Integer>> parse(String[] args) {
        Optional<Shape> shape = args.length == 0 ? Optional.empty() : shape(args[0]);
        if (shape.isEmpty()) {
            return Optional.empty();
        }
        Set<String> flags = new HashSet<>();
        Map<String, String> values = new HashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("@")) {
                return Optional.empty();
            } else if (!a.startsWith("-")) {
                positional.add(a);
            } else if (shape.get().flags().contains(a) && flags.add(a)) {
                continue;
            } else if (VALUE_OPTIONS.contains(a) && i + 1 < args.length && plainValue(args[i + 1])
                    && !values.containsKey(a)) {
                values.put(a, args[++i]);
            } else {
                return Optional.empty();
            }
        }
        if (positional.size() < shape.get().minArgs() || positional.size() > shape.get().maxArgs()) {
            return Optional.empty();
        }
        return grid(values).flatMap(grid -> command(args[0], grid, flags, positional));
    }

    /** A value picocli would take as it is: not option-like, not an {@code @file}. */
    private static boolean plainValue(String value) {
        return !value.startsWith("-") && !value.startsWith("@");
    }

    private static Optional<GridOptions> grid(Map<String, String> values) {
        GridOptions grid = new GridOptions();
        try {
            grid.config = values.containsKey("--config") ? Path.of(values.get("--config")) : null;
            grid.scheduler = values.containsKey("--scheduler") ? new URI(values.get("--scheduler")) : null;
            grid.actingFor = values.get("--as");
            return Optional.of(grid);
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Callable<Integer>> command(String name, GridOptions grid, Set<String> flags,
                                                       List<String> args) {
        boolean json = flags.contains("--json");
        if (name.equals("submit")) {
            SubmitCommand submit = new SubmitCommand();
            submit.grid = grid;
            submit.files = args;
            submit.await = flags.contains("--wait");
            submit.json = json;
            submit.dryRun = flags.contains("--dry-run");
            return Optional.of(submit);
        }
        if (name.equals("jobs") || name.equals("sites")) {
            return Optional.of(name.equals("jobs") ? jobs(grid, json) : sites(grid, json));
        }
        if (!args.stream().allMatch(a -> a.matches("0|[1-9][0-9]{0,17}"))) {
            return Optional.empty();
        }
        List<Long> ids = args.stream().map(Long::valueOf).toList();
        return Optional.of(name.equals("status") ? status(grid, ids.get(0), json) : cancel(grid, ids));
    }

    private static JobCommands.Jobs jobs(GridOptions grid, boolean json) {
        JobCommands.Jobs jobs = new JobCommands.Jobs();
        jobs.grid = grid;
        jobs.json = json;
        return jobs;
    }

    private static JobCommands.Sites sites(GridOptions grid, boolean json) {
        JobCommands.Sites sites = new JobCommands.Sites();
        sites.grid = grid;
        sites.json = json;
        return sites;
    }

    private static JobCommands.Status status(GridOptions grid, long id, boolean json) {
        JobCommands.Status status = new JobCommands.Status();
        status.grid = grid;
        status.id = id;
        status.json = json;
        return status;
    }

    private static JobCommands.Cancel cancel(GridOptions grid, List<Long> ids) {
        JobCommands.Cancel cancel = new JobCommands.Cancel();
        cancel.grid = grid;
        cancel.ids = new ArrayList<>(ids);
        return cancel;
    }
}
