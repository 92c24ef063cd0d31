package koala.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.runner.TokenSource;
import koala.api.scheduler.SchedulerClient;
import koala.common.json.Json;
import koala.common.time.Poll;
import koala.grid.KoalaHome;
import koala.http.ApiException;
import koala.process.JavaCommand;
import koala.process.ProcessClasspath;
import koala.process.RuntimeImage;

/**
 * {@code koala submit framework.jdf}: starts the instance's framework runner as a process of its
 * own (it outlives this command), waits until it has registered the instance, and follows the
 * initial deployment. The runner's address and the instance's token are in
 * {@code KOALA_HOME/runners/runner-ID.json}, readable only by the submitter; its log beside it.
 */
public final class RunnerLaunch {
    private static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(60);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")
            .withZone(java.time.ZoneId.systemDefault());

    /** A registered instance: its id, RPC address and token, and the runner's log. */
    /** @param state the runner's state file, which holds the instance's token in force (the runner replaces it) */
    public record Launched(long instance, URI url, Path state, Path log, long pid) {
        public RunnerClient client() {
            return new RunnerClient(url, TokenSource.stateFile(state));
        }

        public String token() {
            return TokenSource.stateFile(state).get();
        }

        /**
         * Waits for the runner to see its allocation closed and exit (at its next tick), so that a
         * scheduler stopped right after does not leave it calling for the scheduler's give-up time.
         */
        public boolean awaitExit(Duration timeout) {
            return ProcessHandle.of(pid).map(p -> {
                try {
                    p.onExit().get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                    return true;
                } catch (java.util.concurrent.TimeoutException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                } catch (java.util.concurrent.ExecutionException e) {
                    return true;
                }
            }).orElse(true);
        }
    }

    private RunnerLaunch() {
    }

    /** This process's account: its user name and its uid as the kernel has it. */
    static koala.auth.Identity submitter() {
        try {
            return new koala.auth.Identity(System.getProperty("user.name"),
                    (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalStateException("cannot tell who runs this command (no /proc/self): " + e.getMessage(), e);
        }
    }

    static Path dir() {
        return KoalaHome.dir().resolve("runners");
    }

    /**
     * Makes the runners' directory: their state holds their instances' tokens, so only its owner
     * (and root) reads it. A directory that cannot be made is said so, with what to do.
     */
    static void makeDir(Path dir) throws IOException {
        try {
            KoalaHome.createPrivate(dir);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.AccessDeniedException ? "Permission denied"
                    : e instanceof java.nio.file.FileAlreadyExistsException ? "Not a directory"
                    : e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                    : e.getClass().getSimpleName();
            throw new IOException("cannot make " + dir + " for the framework runner's state and the instance's token ("
                    + why + ": " + (e instanceof java.nio.file.FileSystemException f ? f.getFile() : dir)
                    + "): set KOALA_HOME to a directory of yours", e);
        }
    }

    /** Starts the runner of {@code jdf}, calling the scheduler as {@code scheduler} does (and for whom it acts). */
    public static Launched start(Path jdf, Path gridFile, SchedulerClient scheduler) throws IOException {
        makeDir(dir());
        String stamp = STAMP.format(InstantSource.system().instant());
        Path log = dir().resolve("runner-" + stamp + ".log");
        List<String> line = new ArrayList<>(List.of("setsid"));
        List<String> args = new ArrayList<>(List.of("--scheduler", scheduler.base().toString(),
                "--jdf", jdf.toAbsolutePath().toString(), "--config", gridFile.toAbsolutePath().toString(),
                "--state", dir().toString()));
        scheduler.actingFor().ifPresent(user -> args.addAll(List.of("--as", user)));
        line.addAll(JavaCommand.of("koala.runner.RunnerMain", ProcessClasspath.of(ProcessClasspath.RUNNER, RuntimeImage.currentClasspath()),
                args.toArray(String[]::new)).commandLine());
        Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        String[] ready = new String[1];
        new Poll(InstantSource.system(), Duration.ofMillis(200)).until(() -> {
            ready[0] = readyLine(log).orElse(null);
            return ready[0] != null || !process.isAlive();
        }, REGISTER_TIMEOUT);
        if (ready[0] == null) {
            process.destroy();
            throw new IllegalStateException("the framework runner did not register the instance; its log "
                    + log + " ends:\n" + tail(log));
        }
        long instance = Long.parseLong(ready[0].split(" ")[1]);
        Path renamed = dir().resolve("runner-" + instance + ".log");
        Files.deleteIfExists(renamed);
        Files.createSymbolicLink(renamed, log.getFileName());
        Path stateFile = dir().resolve("runner-" + instance + ".json");
        JsonNode state = Json.mapper().readTree(stateFile.toFile());
        return new Launched(instance, URI.create(state.get("url").asText()), stateFile, renamed, process.pid());
    }

    /** Shows the initial deployment as it goes; the instance's state once it is RUNNING or has ended. */
    public static String follow(Launched launched, Duration timeout, boolean quiet) {
        RunnerClient client = launched.client();
        String[] state = {"DEPLOYING"};
        int[] shown = {0};
        List<List<String>> waited = new java.util.ArrayList<>(List.of(List.of()));
        new Poll(InstantSource.system(), Duration.ofMillis(500)).until(() -> {
            try {
                RunnerMessages.Status status = client.status();
                state[0] = status.state();
                List<String> events = status.events();
                for (int i = shown[0]; i < events.size() && !quiet; i++) {
                    System.out.println("  " + events.get(i));
                }
                shown[0] = events.size();
                // what the instance waits for, said once each time it changes: the wait is progress too
                if (!status.waiting().equals(waited.get(0)) && !quiet) {
                    status.waiting().forEach(w -> System.out.println("  " + w));
                }
                waited.set(0, status.waiting());
                return !state[0].equals("DEPLOYING");
            } catch (ApiException e) {
                state[0] = "GONE (" + e.getMessage() + ")";
                return true;
            }
        }, timeout);
        return state[0];
    }

    /**
     * Instance {@code id}'s token, which its master asks of every caller, from its runner's state
     * file: only the instance's submitter can read it.
     */
    static String token(long id) {
        return token(dir().resolve("runner-" + id + ".json"), id);
    }

    /** Instance {@code id}'s token, from its runner's state {@code file}. */
    static String token(Path file, long id) {
        try {
            JsonNode token = Json.mapper().readTree(file.toFile()).get("token");
            if (token == null || token.asText().isBlank()) {
                throw new IOException("no token in it");
            }
            return token.asText();
        } catch (IOException e) {
            throw new ApiException(401, "instance " + id + " takes only callers holding its token, kept for its "
                    + "submitter in " + file + ", which cannot be read here: " + e.getMessage());
        }
    }

    /** What {@code koala framework ID} shows of the runner: its live status, or why there is none. */
    record Live(RunnerMessages.Status status, String why) {
        static Live unavailable(String why) {
            return new Live(null, why);
        }
    }

    /** The live status from instance {@code id}'s runner, or why it cannot be had. */
    static Live status(long id) {
        return status(dir().resolve("runner-" + id + ".json"));
    }

    /**
     * The live status from the runner that {@code file} (its {@code runner-ID.json}) names. Without the
     * file, or unable to read it, the submitter's file is what is missing; with it, a runner that
     * refuses the connection or does not answer has most likely died.
     */
    static Live status(Path file) {
        if (!Files.isReadable(file)) {
            return Live.unavailable("its live view needs " + file + ", readable by the submitter");
        }
        RunnerClient client;
        try {
            JsonNode state = Json.mapper().readTree(file.toFile());
            String url = state.path("url").asText("");
            String token = state.path("token").asText("");
            if (url.isEmpty() || token.isEmpty()) {
                return Live.unavailable("cannot read " + file + ": it gives no url or no token");
            }
            client = new RunnerClient(URI.create(url), token);
        } catch (IOException | IllegalArgumentException e) {
            return Live.unavailable("cannot read " + file + ": " + e.getMessage());
        }
        try {
            return new Live(client.status(), null);
        } catch (ApiException e) {
            if (e.transientFailure()) {
                Path log = file.resolveSibling(file.getFileName().toString().replaceFirst("\\.json$", ".log"));
                return Live.unavailable("the runner does not answer (" + e.getMessage() + "); it may have died: "
                        + "see its log " + log);
            }
            return Live.unavailable("the runner refused its status: " + e.getMessage());
        }
    }

    private static Optional<String> readyLine(Path log) {
        try {
            return Files.readAllLines(log).stream().filter(l -> l.startsWith("READY ")).findFirst();
        } catch (IOException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
