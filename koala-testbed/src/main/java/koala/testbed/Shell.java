package koala.testbed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the system commands that set up SGE, with an environment, optionally as another account (the
 * testbed's benchmarks use it too, to run plain {@code qsub} as a cell's user).
 */
public final class Shell {
    /** What a command printed and how it ended. */
    public record Result(List<String> command, int exit, String out, String err) {
        public boolean ok() {
            return exit == 0;
        }

        public Result check() {
            if (exit != 0) {
                String why = (err.isBlank() ? out : err).strip();
                throw new TestbedException(String.join(" ", command) + " failed (exit " + exit + ")"
                        + (why.isEmpty() ? "" : ": " + why));
            }
            return this;
        }
    }

    private final Map<String, String> env;
    private final String user;
    private final List<String> host;

    Shell(Map<String, String> env, String user, List<String> host) {
        this.env = Map.copyOf(env);
        this.user = user;
        this.host = List.copyOf(host);
    }

    public static Shell root() {
        return new Shell(Map.of(), null, List.of());
    }

    public Shell with(Map<String, String> variables) {
        return new Shell(variables, user, host);
    }

    public Shell as(String account) {
        return new Shell(env, account, host);
    }

    /** Commands run on another host: inside its namespaces, entered with {@code enter}. */
    Shell on(List<String> enter) {
        return new Shell(env, user, enter);
    }

    public Result run(String... command) {
        return run(List.of(command), line -> { });
    }

    public Result check(String... command) {
        return run(command).check();
    }

    /** Runs {@code command}, handing each line of its output to {@code lines} as it comes. */
    public Result run(List<String> command, Consumer<String> lines) {
        List<String> full = new ArrayList<>(host);
        if (user != null) {
            full.addAll(List.of("runuser", "-u", user, "--", "/usr/bin/env"));
            env.forEach((k, v) -> full.add(k + "=" + v));
        }
        full.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(full).directory(Path.of("/").toFile());
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream(), l -> { }));
            String out = read(process.getInputStream(), lines);
            if (!process.waitFor(15, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new TestbedException(String.join(" ", command) + " did not finish within 15 minutes");
            }
            return new Result(command, process.exitValue(), out, err.join());
        } catch (IOException e) {
            throw new TestbedException("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted while running " + command.get(0));
        }
    }

    private static String read(java.io.InputStream in, Consumer<String> lines) {
        StringBuilder all = new StringBuilder();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.accept(line);
                all.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }
}
