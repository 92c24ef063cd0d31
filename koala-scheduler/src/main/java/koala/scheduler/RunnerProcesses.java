package koala.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import koala.api.runner.RunnerMessages;
import koala.common.json.Json;
import koala.common.time.Poll;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import koala.process.JavaCommand;

/**
 * The framework runners' processes on this host, for the {@link RunnerSupervisor}: liveness through
 * a runner's unauthenticated {@code GET /health} and the pid in its state file, and a restart as
 * {@code RunnerMain --adopt STATE} on the scheduler's own Java and published class path (with the
 * runners' class archive once made), as the instance's owner (through {@code runuser} when the scheduler runs as root), in a session of its
 * own so that it outlives the scheduler, its output appended to {@code runner-ID.log} beside its
 * state by a shell already running as the owner (the scheduler never opens a file in a user's
 * directory for writing).
 */
final class RunnerProcesses implements RunnerSupervisor.Runners {
    static final String MAIN_CLASS = "koala.runner.RunnerMain";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    /**
     * A runner is mostly idle and must start fast on a busy machine: the client compiler alone (the
     * server compiler's threads compete with everything else for the cores while it starts), a small
     * serial heap.
     */
    static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto");

    private final InstantSource clock;
    private final Duration startTimeout;
    private final List<Path> classpath;
    /** The address this host's runners serve at, as the grid's hosts reach it ({@code grid.host}; loopback without). */
    private final String gridAddress;
    /** The options that map the runners' class archive; none until it is made (or when it cannot be). */
    private volatile List<String> archive = List.of();

    /**
     * @param classpath the scheduler's own class path as published for other accounts: what a runner
     *                  started again runs on, whatever class path the one that died had
     */
    RunnerProcesses(InstantSource clock, Duration startTimeout, List<Path> classpath) {
        this(clock, startTimeout, classpath, "127.0.0.1");
    }

    /** @param gridAddress the literal address this host's runners serve at ({@code GridConfig#hostAddress}) */
    RunnerProcesses(InstantSource clock, Duration startTimeout, List<Path> classpath, String gridAddress) {
        this.clock = clock;
        this.startTimeout = startTimeout;
        this.classpath = List.copyOf(classpath);
        this.gridAddress = gridAddress;
    }

    /**
     * This host's grid address, at the port {@code w}'s runner had if nothing holds it here (a runner of the
     * same host, paused, still would), else at a free one: the instance's address changes host anyway.
     */
    @Override
    public URI addressHere(RunnerSupervisor.Watched w) {
        int port = w.runner().getPort();
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            probe.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName(strip(gridAddress)),
                    port > 0 ? port : 0));
            return URI.create("http://" + gridAddress + ":" + probe.getLocalPort());
        } catch (IOException taken) {
            try (java.net.ServerSocket any = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(
                    strip(gridAddress)))) {
                return URI.create("http://" + gridAddress + ":" + any.getLocalPort());
            } catch (IOException e) {
                throw new UncheckedIOException("no port to serve a runner at on " + gridAddress + ": " + e.getMessage(), e);
            }
        }
    }

    /** {@code [fd00::1]} as the name it is bound by. */
    private static String strip(String address) {
        return address.startsWith("[") ? address.substring(1, address.length() - 1) : address;
    }

    /**
     * Makes the runners' class archive in {@code dir} (trained on {@code gridFile}) on {@code executor}:
     * the JVM of a runner started again then maps the classes it loads before it serves instead of
     * reading them from the jars, which shortens the time its instance goes unserved.
     */
    RunnerProcesses archived(Path dir, Path gridFile, java.util.concurrent.Executor executor) {
        executor.execute(() -> archive = koala.process.ClassArchive.options(dir, classpath, JVM_OPTIONS,
                MAIN_CLASS, List.of("--train", gridFile.toString())));
        return this;
    }

    @Override
    public boolean answers(RunnerSupervisor.Watched w) {
        return health(w).map(h -> h.instance() == w.id()).orElse(false);
    }

    private static Optional<RunnerMessages.Health> health(RunnerSupervisor.Watched w) {
        try {
            return Optional.of(JsonHttpClient.shortLived(w.runner(), PROBE_TIMEOUT).get("/health",
                    RunnerMessages.Health.class));
        } catch (ApiException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<Boolean> alive(RunnerSupervisor.Watched w) {
        try {
            return Optional.of(runnerProcess(state(w).path("pid").asLong(-1)).isPresent());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public void kill(RunnerSupervisor.Watched w) {
        try {
            runnerProcess(state(w).path("pid").asLong(-1)).ifPresent(ProcessHandle::destroyForcibly);
        } catch (IOException e) {
            // nothing to kill that can be told to be the runner
        }
    }

    /** The process {@code pid} if it is alive and a framework runner (never another that took its pid). */
    private static Optional<ProcessHandle> runnerProcess(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> {
            try {
                String line = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                        StandardCharsets.UTF_8);
                return line.contains(MAIN_CLASS);
            } catch (IOException e) {
                return false;
            }
        });
    }

    @Override
    public String start(RunnerSupervisor.Watched w) throws Exception {
        String account;
        try {
            account = account(w, state(w));
        } catch (IOException e) {
            throw new IllegalStateException("its state file " + w.state() + " cannot be read: "
                    + (e instanceof java.nio.file.NoSuchFileException ? "it is not there" : e.getMessage()), e);
        }
        Path log = w.state().resolveSibling("runner-" + w.id() + ".log");
        Process process = new ProcessBuilder(command(w, account, log, JavaCommand.currentJava(), classpath, archive)).directory(new java.io.File("/"))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        RunnerMessages.Health[] up = new RunnerMessages.Health[1];
        new Poll(clock, Duration.ofMillis(50)).until(() -> {
            up[0] = health(w).filter(h -> h.instance() == w.id()).orElse(null);
            return up[0] != null || !process.isAlive();
        }, startTimeout);
        if (up[0] != null) {
            return "pid " + up[0].pid() + ", log " + log;
        }
        if (!process.isAlive()) {
            throw new IllegalStateException("it exited with status " + process.exitValue() + "; see " + log);
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new IllegalStateException("it did not serve within " + startTimeout.toSeconds() + " s; see " + log);
    }

    /**
     * {@code setsid [runuser -u ACCOUNT --] /bin/sh -c 'exec "$@" >>"$0" 2>&1' LOG JAVA OPTIONS -cp CP RunnerMain
     * --adopt STATE [--generation N --url URL]}: the Java and class path are the scheduler's, never read from
     * the user's file; the generation and address are the store's, recorded for this start.
     *
     * @param account whom the runner runs as ({@link #account})
     */
    static List<String> command(RunnerSupervisor.Watched w, String account, Path log, Path java, List<Path> classpath,
                                List<String> archive) {
        List<String> line = new ArrayList<>(List.of("setsid"));
        if (!account.equals(System.getProperty("user.name"))) {
            line.addAll(List.of("runuser", "-u", account, "--"));
        }
        line.addAll(List.of("/bin/sh", "-c", "exec \"$@\" >>\"$0\" 2>&1", log.toString(), java.toString()));
        line.addAll(JVM_OPTIONS);
        line.addAll(archive);
        line.addAll(List.of("-cp", classpath.stream().map(Path::toString).collect(Collectors.joining(":")),
                MAIN_CLASS, "--adopt", w.state().toString()));
        if (w.generation() > 0) {
            line.addAll(List.of("--generation", Long.toString(w.generation()), "--url", w.runner().toString()));
        }
        return line;
    }

    /**
     * The runner's state, read as root from a user's directory: never through a link, only from a file
     * of the instance's owner, and a file that is not JSON is refused without quoting it.
     */
    private static State state(RunnerSupervisor.Watched w) throws IOException {
        String owner = Files.getOwner(w.state(), LinkOption.NOFOLLOW_LINKS).getName();
        if (!Files.isRegularFile(w.state(), LinkOption.NOFOLLOW_LINKS)
                || !(owner.equals(w.owner()) || owner.equals(ROOT))) {
            throw new IOException("it is not a file of the instance's owner " + w.owner());
        }
        try (var in = Files.newInputStream(w.state(), LinkOption.NOFOLLOW_LINKS)) {
            return new State(Json.mapper().readTree(in), owner);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException("it is not a runner's state (not JSON)");
        }
    }

    private static final String ROOT = "root";

    /** A runner's state file as read, and the account that owns the file. */
    record State(JsonNode json, String fileOwner) {
        JsonNode path(String field) {
            return json.path(field);
        }
    }

    /**
     * Whom a runner runs as: the instance's owner, whose file its state is; or root, for a runner
     * root started for the owner ({@code RunnerMain --as OWNER}, kept in the state it wrote).
     */
    static String account(RunnerSupervisor.Watched w, State state) throws IOException {
        if (state.fileOwner().equals(w.owner())) {
            return w.owner();
        }
        if (state.fileOwner().equals(ROOT) && w.owner().equals(state.path("launch").path("actingFor").asText(null))) {
            return ROOT;
        }
        throw new IOException("it is not a file of the instance's owner " + w.owner()
                + " (nor of root's runner acting for them)");
    }
}
