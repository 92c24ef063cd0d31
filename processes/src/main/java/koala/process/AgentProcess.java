package koala.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import koala.api.site.AgentSecret;
import koala.api.site.SiteAgentClient;
import koala.grid.SiteConfig;

/**
 * A site agent running as a child process on this machine, with its cell's environment, as the
 * site's agent account, with the DRMAA library loadable. The agent reads its secret from the first
 * line of its standard input (a pipe that passes through {@code runuser} untouched; a command line
 * or the environment would show it to others), prints one line {@code READY <url>} on standard
 * output once it serves; everything else it logs goes to {@code KOALA_HOME/logs/agent-<site>.log}.
 */
public final class AgentProcess implements AutoCloseable {
    public static final String MAIN_CLASS = "koala.site.AgentMain";
    public static final String READY = "READY ";

    private final SiteConfig site;
    private final Process process;
    private final URI url;
    private final Path log;
    private final AgentSecret secret;

    private AgentProcess(SiteConfig site, Process process, URI url, Path log, AgentSecret secret) {
        this.site = site;
        this.process = process;
        this.url = url;
        this.log = log;
        this.secret = secret;
    }

    /** Starts the agent for {@code site} with a new secret and waits until it serves. */
    public static AgentProcess start(SiteConfig site, Path gridConfig, Path koalaHome, int port, Duration timeout) {
        return start(site, gridConfig, koalaHome, port, timeout, AgentSecret.random());
    }

    /** Starts the agent for {@code site}, handing it {@code secret}, and waits until it serves. */
    public static AgentProcess start(SiteConfig site, Path gridConfig, Path koalaHome, int port, Duration timeout,
                                     AgentSecret secret) {
        Path log = koalaHome.resolve("logs").resolve("agent-" + site.name() + ".log");
        return start(site, commandFor(site, gridConfig, koalaHome, port).commandLine(), log, timeout, secret);
    }

    /** As {@link #start(SiteConfig, Path, Path, int, Duration, AgentSecret)}; the agent ends after {@code idleExit} without a call. */
    public static AgentProcess start(SiteConfig site, Path gridConfig, Path koalaHome, int port, Duration timeout,
                                     AgentSecret secret, Duration idleExit) {
        Path log = koalaHome.resolve("logs").resolve("agent-" + site.name() + ".log");
        return start(site, commandFor(site, gridConfig, koalaHome, port, List.of("--idle-exit",
                Long.toString(idleExit.toSeconds()))).commandLine(), log, timeout, secret);
    }

    /** Runs {@code commandLine} as the agent: the secret on its standard input, READY awaited on its output. */
    static AgentProcess start(SiteConfig site, List<String> commandLine, Path log, Duration timeout, AgentSecret secret) {
        try {
            Files.createDirectories(log.getParent());
            if (!Files.exists(log, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                // it names the agent's port: for KOALA's eyes only
                Files.createFile(log, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            }
            // from "/": the agent account may not be allowed into the caller's working directory
            Process process = new ProcessBuilder(commandLine).directory(new java.io.File("/"))
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            try {
                handOver(process.getOutputStream(), secret);
            } catch (IOException e) {
                // it exited before reading its secret; awaitReady reports how, with its log
            }
            URI url = awaitReady(process, log, timeout);
            return new AgentProcess(site, process, url, log, secret);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the agent for site " + site.name(), e);
        }
    }

    /** Writes the secret's line and closes the agent's standard input: it reads nothing else there. */
    public static void handOver(OutputStream stdin, AgentSecret secret) throws IOException {
        try (stdin) {
            stdin.write(secret.inputLine());
        }
    }

    /** The command that runs the agent of {@code site} here. */
    public static JavaCommand commandFor(SiteConfig site, Path gridConfig, Path koalaHome, int port) {
        return commandFor(site, gridConfig, koalaHome, port, List.of());
    }

    private static JavaCommand commandFor(SiteConfig site, Path gridConfig, Path koalaHome, int port, List<String> more) {
        List<Path> classpath = new ArrayList<>(RuntimeImage.publishedClasspath(koalaHome, ProcessClasspath.SITE_AGENT));
        if (classpath.stream().noneMatch(p -> p.getFileName().toString().contains("drmaa"))) {
            classpath.add(site.drmaa().jar());
        }
        List<String> args = new ArrayList<>(List.of("--config", gridConfig.toString(), "--site", site.name(), "--port",
                Integer.toString(port)));
        args.addAll(more);
        return command(site, JavaCommand.currentJava(), classpath, RuntimeImage.nativeDir(koalaHome,
                site.drmaa().library()), args).as(site.agentUser());
    }

    /**
     * Starts an agent of {@code site} under {@code user}'s account, which submits and kills that
     * user's pilots, so that SGE (its accounting, fair share, file permissions) sees the real user.
     * It stops by itself once no one has called it for {@code idleExit}.
     */
    public static AgentProcess startForUser(SiteConfig site, String user, Path gridConfig, Path koalaHome,
                                            Duration timeout, AgentSecret secret, Duration idleExit) {
        SiteConfig theirs = site.withAgentUser(user);
        Path log = koalaHome.resolve("logs").resolve("agent-" + site.name() + "-" + user + ".log");
        return start(theirs, commandFor(theirs, gridConfig, koalaHome, 0, List.of("--idle-exit",
                Long.toString(idleExit.toSeconds()))).commandLine(), log, timeout, secret);
    }

    /**
     * The agent's JVM with the cell's environment and libdrmaa loadable (a Slurm site's: {@code SLURM_CONF}),
     * wherever it runs: here, or on a remote head node, where every path is one there.
     *
     * @param nativeDir a directory holding {@code libdrmaa.so}
     */
    public static JavaCommand command(SiteConfig site, Path java, List<Path> classpath, Path nativeDir,
                                      List<String> args) {
        JavaCommand command = new JavaCommand(java, classpath, Optional.empty(), Optional.empty(), Map.of(),
                Optional.empty(), List.of(), MAIN_CLASS, List.copyOf(args))
                .withJvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"));
        // a Slurm site's agent runs Slurm's commands, which find the cluster by SLURM_CONF; no libdrmaa
        return site.slurm().map(slurm -> command.withEnv(slurm.variables()))
                .orElseGet(() -> command.withNative(nativeDir, site.drmaa().preload()).withEnv(site.cell().variables()));
    }

    private static URI awaitReady(Process process, Path log, Duration timeout) {
        CompletableFuture<URI> ready = CompletableFuture.supplyAsync(() -> readReadyLine(process));
        try {
            return ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("agent not ready within " + timeout.toSeconds() + " s; see " + log);
        } catch (ExecutionException e) {
            throw new IllegalStateException("agent did not start: " + e.getCause().getMessage() + "; see " + log
                    + tail(log));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while starting the agent");
        }
    }

    private static URI readReadyLine(Process process) {
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(READY)) {
                    return URI.create(line.substring(READY.length()).trim());
                }
            }
            throw new IllegalStateException("agent exited with status " + process.waitFor());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return "\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 8), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    public SiteConfig site() {
        return site;
    }

    public URI url() {
        return url;
    }

    public Path log() {
        return log;
    }

    public SiteAgentClient client() {
        return new SiteAgentClient(url, secret);
    }

    /** The secret this agent was given, for a store that lets a restarted scheduler re-attach. */
    public AgentSecret secret() {
        return secret;
    }

    /** The process id of the agent's launcher (a {@code runuser} when it runs as another account). */
    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /**
     * Sends the agent (its launcher and what it started) a TERM and returns them, for the caller to
     * wait on with one deadline for many agents, and to kill what is left then.
     */
    public java.util.List<ProcessHandle> terminate() {
        return terminate(process.toHandle());
    }

    /**
     * A TERM to what {@code p} started, or to {@code p} when it started nothing; {@code p} and what it started,
     * to wait for. A {@code runuser} given a TERM itself waits 2 s before it exits, whatever its child does;
     * one whose child ends exits at once.
     */
    public static java.util.List<ProcessHandle> terminate(ProcessHandle p) {
        java.util.List<ProcessHandle> started = p.descendants().toList();
        java.util.List<ProcessHandle> going = new java.util.ArrayList<>(started);
        going.add(p);
        (started.isEmpty() ? List.of(p) : started).forEach(ProcessHandle::destroy);
        return going;
    }

    /** Stops the agent: a TERM, then a KILL if it has not gone within ten seconds. */
    @Override
    public void close() {
        terminate(process.toHandle());
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
