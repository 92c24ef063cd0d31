package koala.node;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.NodeTask;
import koala.common.time.Poll;
import koala.http.ApiException;

/**
 * What every pilot job runs: the node's end of KOALA. It tells the scheduler it has arrived on its
 * host, waits to be told what to run (a co-allocated job starts only when all its nodes have
 * arrived), runs it, reports the exit status, and exits, which ends the pilot job and frees the
 * node. When the scheduler cannot be reached for longer than {@code --give-up} (it crashed and did
 * not come back), the launcher stops what it runs and exits, so that a lost scheduler never holds
 * nodes forever.
 *
 * <p>Usage: {@code NodeLauncher --scheduler URL --node ID --token-file FILE [--give-up SECONDS] [--cores N]}
 * (or {@code --train}, the class archive's training run: {@link Training}), the node's token in
 * {@code FILE}, which the launcher deletes once read. {@code --cores} is the node's number of cores, of which
 * an entity's CPU utilization is a share (default: the cores this JVM sees).
 *
 * <p>A task's executable and arguments may name KOALA's own runtime as the site's nodes see it:
 * {@code ${KOALA_JAVA}} becomes the Java this launcher runs on and {@code ${KOALA_CLASSPATH}} the
 * class path of KOALA's programs (the reference framework) there, so that one job description runs
 * KOALA's programs on every site, wherever each site keeps KOALA's jars. Any other {@code ${NAME}} becomes that variable of the node's environment
 * (e.g. {@code ${HOME}}, the user's home directory, which a cluster's nodes share), or stays as it
 * is when there is none.
 */
public final class NodeLauncher {
    private static final Duration LONG_POLL = Duration.ofSeconds(20);

    private final SchedulerLine scheduler;
    private final String node;
    private final String token;
    private final Duration giveUp;
    private final InstantSource clock;
    private final Poll retry;

    private final int cores;
    private koala.api.runner.RunnerMessages.Startup steps;
    private URI schedulerUrl;

    NodeLauncher(SchedulerLine scheduler, String node, String token, Duration giveUp, int cores, InstantSource clock) {
        this.scheduler = scheduler;
        this.cores = cores;
        this.node = node;
        this.token = token;
        this.giveUp = giveUp;
        this.clock = clock;
        this.retry = new Poll(clock, Duration.ofSeconds(1));
    }

    /** When this JVM's {@code main} began: the end of its start, one step of a grow's overhead. */
    static final java.time.Instant MAIN = java.time.Instant.now();

    public static void main(String[] args) throws Exception {
        new LambdaLinking().start();
        if (args.length == 1 && args[0].equals("--train")) {
            System.exit(Training.run());
        }
        System.exit(of(args, token(option(args, "--token-file"))).run());
    }

    /**
     * The node's token, from the file the site agent wrote for this pilot alone (0600), which is
     * deleted once read: the token never appears in the job's environment or arguments, which
     * {@code qstat -j} shows every user.
     */
    static String token(Optional<String> file) throws IOException {
        if (file.isEmpty()) {
            return "";
        }
        Path path = Path.of(file.get());
        String token = java.nio.file.Files.readString(path).strip();
        java.nio.file.Files.deleteIfExists(path);
        return token;
    }

    /**
     * The launcher a command line asks for, read without lambdas (see {@link LambdaLinking}). The training run
     * comes through here too, so that the class archive holds what a pilot's launcher loads.
     */
    static NodeLauncher of(String[] args, String token) {
        String url = required(args, "--scheduler", "URL");
        String node = required(args, "--node", "ID");
        String giveUp = option(args, "--give-up").orElse("300");
        String cores = option(args, "--cores").orElse(null);
        List<URI> schedulers = SchedulerLine.addresses(url);
        NodeLauncher launcher = new NodeLauncher(new SchedulerLine(schedulers), node, token,
                Duration.ofSeconds(Long.parseLong(giveUp)),
                cores != null ? Integer.parseInt(cores) : Runtime.getRuntime().availableProcessors(), InstantSource.system());
        launcher.schedulerUrl = schedulers.get(0);
        return launcher;
    }

    private static String required(String[] args, String name, String what) {
        Optional<String> value = option(args, name);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(name + " " + what);
        }
        return value.get();
    }

    /**
     * Links the JDK's lambda machinery (some 8 ms of a fresh JVM, at its first lambda) on a thread of its own,
     * while the launcher's main thread reads its token and makes its arrival, on a path without lambdas,
     * and waits for the scheduler's answer. Not a lambda itself, so that starting it costs nothing.
     */
    private static final class LambdaLinking extends Thread {
        LambdaLinking() {
            super("lambda-linking");
            setDaemon(true);
        }

        @Override
        public void run() {
            java.util.function.Supplier<String> linked = () -> "linked";
            java.util.function.Function<String, Integer> parse = Integer::parseInt;
            parse.apply(linked.get().length() + "");
        }
    }

    int run() throws IOException, InterruptedException {
        String host = hostName();
        log("node " + node + " arrived on " + host);
        Optional<NodeTask> task = arrive(new NodeReport(token, host, null));
        Instant arrived = clock.instant();
        while (task.isPresent() && task.get().action().equals("WAIT")) {
            task = call(() -> scheduler.task(node, token, LONG_POLL));
        }
        steps = new koala.api.runner.RunnerMessages.Startup(ProcessStart.of(Path.of("/proc"), clock.instant()).orElse(MAIN),
                MAIN, arrived, clock.instant(), null, null);
        if (task.isEmpty() || !task.get().action().equals("RUN")) {
            log(task.isEmpty() ? "scheduler gone; giving the node back" : "told to exit");
            return 0;
        }
        int status = EntityRun.wanted(task.get()) ? new EntityRun(task.get(), node, host, cores, clock, steps,
                this::runnerNow).run()
                : task.get().mpiHosts() != null ? executeMpi(task.get()) : execute(task.get());
        log("command ended with status " + status);
        String detail = endDetail;
        call(() -> scheduler.exited(node, new NodeReport(token, host, status, detail)));
        return 0;
    }

    /** The address of its runner the scheduler gives the node now, asked once; empty when it cannot say. */
    private Optional<String> runnerNow() {
        try {
            NodeTask now = scheduler.task(node, token, Duration.ZERO);
            return now.action().equals("RUN") && now.environment() != null
                    ? Optional.ofNullable(now.environment().get(koala.api.runner.RunnerClient.URL_VARIABLE))
                    : Optional.empty();
        } catch (ApiException e) {
            return Optional.empty();
        }
    }

    /** What the command said of its end, for the scheduler's history (mpirun naming the rank that ended the world). */
    private String endDetail;

    /**
     * Runs the MPI job's command under mpirun from here ({@link MpiRun}); its exit status. mpirun's
     * standard error goes where the component's does, read on the way for the rank that ended the world.
     */
    private int executeMpi(NodeTask task) throws IOException, InterruptedException {
        Path dir = PrivateDirectory.make("koala-mpi-");
        try {
            NodeTask run = MpiRun.under(task, dir, ProcessHandle.current().info().command().orElse("java"),
                    System.getProperty("java.class.path"));
            Map<String, String> env = new java.util.HashMap<>(run.environment());
            env.put(MpiAgent.SCHEDULER, schedulerUrl.toString());
            env.put(MpiAgent.NODE, node);
            env.put(MpiAgent.TOKEN, token);
            NodeTask mpirun = new NodeTask(run.action(), run.executable(), run.arguments(), env, run.directory(),
                    run.stdout(), run.stderr(), run.maxWallSeconds());
            MpiEnd end = new MpiEnd(task.mpiHosts());
            int status = executeReading(mpirun, end::line);
            endDetail = status == 0 ? null : end.detail().orElse(null);
            return status;
        } finally {
            try (var files = java.nio.file.Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Runs the component's command here; returns its exit status. A cancel kills the pilot, and SGE the command with it. */
    private int execute(NodeTask task) throws IOException, InterruptedException {
        ProcessBuilder builder = builder(task, task.environment());
        log("running " + String.join(" ", builder.command()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            log("cannot start: " + e.getMessage());
            return 127;
        }
        return finish(process, task.maxWallSeconds() == null ? null : Duration.ofSeconds(task.maxWallSeconds()));
    }

    /** As {@link #execute}, its standard error copied line by line to where the task says, each line read by {@code reader}. */
    private int executeReading(NodeTask task, java.util.function.Consumer<String> reader)
            throws IOException, InterruptedException {
        ProcessBuilder builder = builder(task, task.environment()).redirectError(ProcessBuilder.Redirect.PIPE);
        log("running " + String.join(" ", builder.command()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            log("cannot start: " + e.getMessage());
            return 127;
        }
        Thread copier = new Thread(() -> copyLines(process.getErrorStream(), task.stderr(), reader), "stderr-copier");
        copier.setDaemon(true);
        copier.start();
        int status = finish(process, task.maxWallSeconds() == null ? null : Duration.ofSeconds(task.maxWallSeconds()));
        copier.join(5_000); // the pipe ends with mpirun; a daemon it left holding it must not hold the node's report
        return status;
    }

    private static void copyLines(java.io.InputStream from, String stderr, java.util.function.Consumer<String> reader) {
        try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(from, java.nio.charset.StandardCharsets.UTF_8));
             java.io.OutputStream file = stderr == null ? null : new java.io.FileOutputStream(expand(stderr), true)) {
            java.io.PrintStream out = file == null ? System.err : new java.io.PrintStream(file, true,
                    java.nio.charset.StandardCharsets.UTF_8);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.println(line);
                reader.accept(line);
            }
        } catch (IOException e) {
            log("mpirun's standard error: " + e.getMessage());
        }
    }

    /**
     * The command's exit status; or, when it runs past {@code maxWall}, {@link NodeReport#PAST_WALL_TIME}
     * after stopping it and what it started (SIGTERM, SIGKILL after a grace).
     */
    static int finish(Process process, Duration maxWall) throws InterruptedException {
        if (maxWall == null) {
            return process.waitFor();
        }
        if (process.waitFor(maxWall.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            return process.exitValue();
        }
        log("ran past its maxWallTime of " + maxWall.toSeconds() + " s; stopping it");
        EntityRun.stop(process);
        return NodeReport.PAST_WALL_TIME;
    }

    /** The task's command, in its directory, with this environment added, output where the task says. */
    static ProcessBuilder builder(NodeTask task, Map<String, String> environment) {
        List<String> command = new ArrayList<>();
        command.add(expand(task.executable()));
        task.arguments().forEach(a -> command.add(expand(a)));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        if (task.directory() != null) {
            builder.directory(new File(expand(task.directory())));
        }
        builder.redirectOutput(output(task.stdout()));
        builder.redirectError(task.stderr() == null ? ProcessBuilder.Redirect.INHERIT : output(task.stderr()));
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        return builder;
    }

    /** Compiled at the first text with a variable, not at the class's start: a grow's launcher seldom has one. */
    private static final class Variable {
        static final java.util.regex.Pattern PATTERN = java.util.regex.Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
    }

    /**
     * KOALA's programs' class path as the scheduler gave it (the launcher itself runs on less), or
     * this launcher's own when it gave none.
     */
    static String programsClasspath() {
        return System.getProperty(koala.process.ProcessClasspath.PROGRAMS_PROPERTY, System.getProperty("java.class.path"));
    }

    /** {@code ${KOALA_JAVA}}, {@code ${KOALA_CLASSPATH}} (KOALA's programs' class path) and the node's environment variables. */
    static String expand(String text) {
        return expand(text, System.getenv());
    }

    static String expand(String text, Map<String, String> environment) {
        if (text == null || !text.contains("${")) {
            return text;
        }
        return Variable.PATTERN.matcher(text).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(switch (m.group(1)) {
            case "KOALA_JAVA" -> ProcessHandle.current().info().command().orElse("java");
            case "KOALA_CLASSPATH" -> programsClasspath();
            default -> environment.getOrDefault(m.group(1), m.group());
        }));
    }

    private static ProcessBuilder.Redirect output(String path) {
        return path == null ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.appendTo(new File(expand(path)));
    }

    /**
     * The arrival, its first try made here rather than through {@link #call}, so that a lambda does not
     * link the JDK's lambda machinery on this thread while {@link LambdaLinking} does it beside the wait.
     */
    private Optional<NodeTask> arrive(NodeReport report) {
        try {
            return Optional.ofNullable(scheduler.arrive(node, report));
        } catch (ApiException e) {
            if (e.refused()) {
                sayRefused(e);
                return Optional.empty();
            }
            return call(() -> scheduler.arrive(node, report));
        }
    }

    private void sayRefused(ApiException e) {
        log("scheduler refused node " + node + ": " + e.getMessage());
    }

    /**
     * Calls the scheduler until it answers; empty when it has not for {@code giveUp}, or when it says
     * this node is none of its own (404/409/401: the job was cancelled or the node released).
     */
    private Optional<NodeTask> call(Supplier<NodeTask> request) {
        Instant deadline = clock.instant().plus(giveUp);
        NodeTask[] answer = new NodeTask[1];
        boolean[] refused = new boolean[1];
        retry.until(() -> {
            try {
                answer[0] = request.get();
                return true;
            } catch (ApiException e) {
                if (e.refused()) {
                    sayRefused(e);
                    refused[0] = true;
                    return true;
                }
                return false;
            }
        }, Duration.between(clock.instant(), deadline));
        return refused[0] ? Optional.empty() : Optional.ofNullable(answer[0]);
    }

    /** This host's name: the kernel's (no look-up of its address, which {@link InetAddress#getLocalHost} makes). */
    static String hostName() throws IOException {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException e) {
            return InetAddress.getLocalHost().getHostName();
        }
    }

    private static Optional<String> option(String[] args, String name) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Optional.of(args[i + 1]);
            }
        }
        return Optional.empty();
    }

    private static void log(String message) {
        System.err.println("[koala node] " + message);
    }
}
