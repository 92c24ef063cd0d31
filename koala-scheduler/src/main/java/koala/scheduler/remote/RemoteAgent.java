package koala.scheduler.remote;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import koala.api.site.AgentSecret;
import koala.api.site.AgentState;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;
import koala.process.AgentProcess;
import koala.process.JavaCommand;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Puts a site agent on a head node, through an open {@link HeadNodeShell}: checks the head node,
 * brings its jars up to date, and finds the agent already running there (from its state file) or
 * starts one, detached from the SSH session ({@code nohup setsid}), so that it outlives a lost
 * connection and the scheduler re-attaches to it.
 *
 * <p>The agent's secret goes to it on the SSH channel's standard input, which the start script
 * reads and pipes on to the agent with the shell's built-in {@code printf}: it never shows on a
 * command line or in an environment there. The agent keeps it in its state file (mode 0600,
 * readable by the SSH account, which is KOALA's), where a scheduler that reconnects reads it back.
 *
 * <p>Files on the head node, under the site's {@code ssh.dir}: {@code lib/} (jars by checksum),
 * {@code site-S.properties} (the site as the agent reads it), {@code agent-S.state}
 * ({@link AgentState}: the running agent, its relays), {@code callback-S.port} (the scheduler's call-back),
 * {@code callback-S.runners} (runners' call-backs, {@link RunnerCallback}),
 * {@code native-S/libdrmaa.so} (an SGE cell's), {@code logs/agent-S.log} and {@code pilots/} (the pilots' output).
 *
 * <p>The agent's command and environment are those of a local agent ({@link AgentProcess#command}), with
 * paths on the head node: an SGE cell's variables and libdrmaa, or a Slurm site's {@code SLURM_CONF} and
 * neither libdrmaa nor the DRMAA jar.
 */
final class RemoteAgent {
    private static final Logger LOG = LogManager.getLogger(RemoteAgent.class);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final String IMAGE = "-Dkoala.image=";

    /** Where the agent serves on the head node's loopback, its process there, and the secret that reaches it. */
    record Running(int port, long pid, AgentSecret secret) {
    }

    /** The ports this head node gave the scheduler's call-back last: the SSH remote forward's and its relay's. */
    record CallbackPorts(int forward, int relay) {
    }

    /** What the state file and the process it names say. */
    sealed interface Lookup {
        /** An agent of this build serves: re-attach to it. */
        record Live(Running agent) implements Lookup {
        }

        /** An agent of another build runs: replace it. */
        record Stale(long pid) implements Lookup {
        }

        /** No agent runs (no file, no agent line, or its process is gone). */
        record None() implements Lookup {
        }
    }

    private final SiteConfig site;
    private final SshConfig ssh;
    private final HeadNodeShell session;
    private final HeadNodeProbe.HeadNode head;

    RemoteAgent(SiteConfig site, HeadNodeShell session, HeadNodeProbe.HeadNode head) {
        this.site = site;
        this.ssh = site.ssh().orElseThrow();
        this.session = session;
        this.head = head;
    }

    /** Checks the head node; an {@link IllegalStateException} lists what is missing there. */
    static RemoteAgent probe(SiteConfig site, HeadNodeShell session) {
        HeadNodeShell.Result r = session.run(HeadNodeProbe.script(site), COMMAND_TIMEOUT);
        return new RemoteAgent(site, session, HeadNodeProbe.read(site, r.out()));
    }

    HeadNodeProbe.HeadNode head() {
        return head;
    }

    /** Sends the jars missing on the head node or differing there; returns their paths there, in order. */
    List<String> sync(List<RuntimeJars.Jar> jars) {
        String lib = head.dir() + "/lib";
        List<String> names = jars.stream().map(RuntimeJars.Jar::remoteName).toList();
        HeadNodeShell.Result listing = session.run("mkdir -p " + Sh.quote(lib) + " " + Sh.quote(head.dir() + "/logs")
                + " " + Sh.quote(head.dir() + "/pilots") + " && cd " + Sh.quote(lib) + " && { sha256sum "
                + Sh.words(names) + " 2>/dev/null; true; }", COMMAND_TIMEOUT);
        List<RuntimeJars.Jar> send = RuntimeJars.toSend(jars, listing.out());
        for (RuntimeJars.Jar jar : send) {
            try {
                session.upload(jar.source().open(), lib + "/" + jar.remoteName());
            } catch (java.io.IOException e) {
                throw new SshFailure("site " + site.name() + ": cannot read " + jar.name() + ": " + e.getMessage(), e);
            }
        }
        LOG.info("site {}: {} of {} jars sent to {}:{}", site.name(), send.size(), jars.size(), ssh.host(), lib);
        return names.stream().map(n -> lib + "/" + n).toList();
    }

    /**
     * The agent recorded in the state file, if its process still runs. One started from other jars
     * (an older build) is stopped, so that the head node runs what this scheduler ships.
     */
    Optional<Running> find(String image) {
        String f = Sh.quote(stateFile());
        HeadNodeShell.Result r = session.run("[ -f " + f + " ] || exit 0; cat " + f + "; pid=$(sed -n "
                + "'s/^agent [0-9]* \\([0-9]*\\) .*/\\1/p' " + f + " | head -n 1); [ -n \"$pid\" ] && kill -0 \"$pid\" "
                + "2>/dev/null && echo \"cmdline $(tr '\\0' ' ' < /proc/$pid/cmdline)\"; true", COMMAND_TIMEOUT);
        Lookup found = lookUp(r.out(), image);
        if (found instanceof Lookup.Stale stale) {
            LOG.info("site {}: the agent on {} (pid {}) runs an older build; replacing it", site.name(), ssh.host(),
                    stale.pid());
            stop(stale.pid());
        }
        return found instanceof Lookup.Live live ? Optional.of(live.agent()) : Optional.empty();
    }

    /** Reads {@link #find}'s output: the state file, then {@code cmdline ...} if the process it names lives. */
    static Lookup lookUp(String out, String image) {
        Optional<AgentState.Serving> serving = AgentState.parse(out).serving();
        Optional<String> cmdline = out.lines().filter(l -> l.startsWith("cmdline ")).findFirst();
        if (serving.isEmpty() || cmdline.isEmpty() || !cmdline.get().contains(AgentProcess.MAIN_CLASS)) {
            return new Lookup.None(); // no agent, or its pid now belongs to another program
        }
        AgentState.Serving s = serving.get();
        return cmdline.get().contains(IMAGE + image) ? new Lookup.Live(new Running(s.port(), s.pid(), s.secret()))
                : new Lookup.Stale(s.pid());
    }

    /**
     * Names what an agent runs, on its command line ({@code -Dkoala.image=<digest>}): its jars' contents
     * and its relay host, so that an agent of another build, or whose relays listen elsewhere, is replaced.
     * A head node's jars are named {@code <sha>-<name>} ({@link RuntimeJars.Jar#remoteName}) and only the
     * checksums count: a scheduler on another host, whose class path names the same jars otherwise, keeps
     * the agent (and the call-backs of the launchers it serves).
     */
    static String image(List<String> classpath, String relayHost) {
        String contents = classpath.stream().map(RuntimeJars::checksumOf).collect(java.util.stream.Collectors.joining(":"));
        try {
            return RuntimeJars.sha256(new java.io.ByteArrayInputStream((contents + "|" + relayHost)
                    .getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether the agent process {@code pid} still runs. */
    boolean alive(long pid) {
        return session.run("kill -0 " + pid, COMMAND_TIMEOUT).ok();
    }

    /** Starts an agent on the head node with {@code secret}, its relays on {@code relayHost}, and waits until it serves. */
    Running start(List<String> classpath, AgentSecret secret, String relayHost) {
        session.upload(new java.io.ByteArrayInputStream(site.agentProperties().getBytes(StandardCharsets.UTF_8)),
                file("site-" + site.name() + ".properties"));
        HeadNodeShell.Result r = session.run(startScript(classpath, relayHost), START_TIMEOUT.plusSeconds(10),
                secret.inputLine());
        Running agent = running(r.out(), secret).filter(x -> r.ok()).orElseThrow(() -> new IllegalStateException("site "
                + site.name() + ": could not start the agent on " + ssh.host() + ": " + (r.out() + r.err()).strip()));
        LOG.info("site {}: started an agent on {} (pid {}, port {} there)", site.name(), ssh.host(), agent.pid(), agent.port());
        return agent;
    }

    /**
     * The start script: reads the secret from its input, takes the last agent's line out of the
     * state file (relays stay), starts the agent with the secret piped to it, and prints
     * {@code PORT PID} once the agent has written its line.
     */
    String startScript(List<String> classpath, String relayHost) {
        String nativeDir = file("native-" + site.name());
        String state = Sh.quote(stateFile());
        String log = file("logs/agent-" + site.name() + ".log");
        String config = file("site-" + site.name() + ".properties");
        List<Path> cp = new ArrayList<>(classpath.stream().map(Path::of).toList());
        if (site.slurm().isEmpty()) {
            cp.add(site.drmaa().jar()); // the cell's own binding; a Slurm site's agent runs Slurm's commands
        }
        JavaCommand java = AgentProcess.command(site, Path.of(head.java()), cp, Path.of(nativeDir), List.of("--config",
                config, "--site", site.name(), "--port", Integer.toString(site.agentPort()), "--state-file", stateFile(),
                "--idle-exit", Long.toString(ssh.agentIdleExit().toSeconds()), "--relay-host", relayHost));
        List<String> jvm = new ArrayList<>(java.jvmOptions());
        jvm.add(IMAGE + image(classpath, relayHost));
        java = java.withJvmOptions(jvm);
        return String.join("\n",
                "IFS= read -r secret || { echo 'no secret on the input'; exit 1; }",
                nativeLink(nativeDir),
                "[ ! -f " + state + " ] || sed -i '/^agent /d' " + state + " || exit 1",
                "printf '%s\\n' \"$secret\" | nohup setsid " + Sh.words(java.commandLine()) + " >> " + Sh.quote(log)
                        + " 2>&1 &",
                "pid=$!; secret=; i=0",
                "while [ $i -lt " + START_TIMEOUT.toSeconds() * 10 + " ]; do",
                "  line=$(sed -n 's/^agent \\([0-9]*\\) \\([0-9]*\\) .*/\\1 \\2/p' " + state + " 2>/dev/null)",
                "  [ -n \"$line\" ] && { echo \"$line\"; exit 0; }",
                "  kill -0 $pid 2>/dev/null || { echo \"the agent exited; its log " + log + " ends:\"; tail -n 12 "
                        + Sh.quote(log) + "; exit 1; }",
                "  sleep 0.1; i=$((i+1))",
                "done",
                "echo \"the agent was not ready within " + START_TIMEOUT.toSeconds() + " s; see " + log + "\"; exit 1");
    }

    /** Goes to {@code /}; for an SGE cell, links its libdrmaa as {@code libdrmaa.so}, the name the binding loads. */
    private String nativeLink(String nativeDir) {
        return site.slurm().isPresent() ? "cd / || exit 1" : "cd / && mkdir -p " + Sh.quote(nativeDir) + " && ln -sfn "
                + Sh.quote(site.drmaa().library().toString()) + " " + Sh.quote(nativeDir + "/libdrmaa.so") + " || exit 1";
    }

    /** Stops the agent (TERM: it takes its line out of the state file and closes its DRMAA session). */
    void stop(long pid) {
        session.run("kill " + pid + " 2>/dev/null; true", COMMAND_TIMEOUT);
    }

    /** The call-back's ports as last granted on this head node (kept there across scheduler restarts). */
    Optional<CallbackPorts> callbackPorts() {
        HeadNodeShell.Result r = session.run("cat " + Sh.quote(file("callback-" + site.name() + ".port"))
                + " 2>/dev/null; true", COMMAND_TIMEOUT);
        return parseCallbackPorts(r.out());
    }

    /** {@code FORWARD RELAY}; a file from before relays holds {@code FORWARD} alone. */
    static Optional<CallbackPorts> parseCallbackPorts(String text) {
        String[] w = text.trim().split("\\s+");
        try {
            return Optional.of(new CallbackPorts(Integer.parseInt(w[0]), w.length > 1 ? Integer.parseInt(w[1]) : 0));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    void rememberCallbackPorts(CallbackPorts ports) {
        session.run("echo " + ports.forward() + " " + ports.relay() + " > "
                + Sh.quote(file("callback-" + site.name() + ".port")), COMMAND_TIMEOUT);
    }

    /** The runners' call-backs recorded on this head node ({@link RunnerCallback}); none without the file. */
    List<RunnerCallback> runnerCallbacks() {
        HeadNodeShell.Result r = session.run("cat " + Sh.quote(runnerCallbacksFile()) + " 2>/dev/null; true",
                COMMAND_TIMEOUT);
        return RunnerCallback.parseAll(r.out());
    }

    /** Records {@code callbacks} in place of those recorded before, whole or not at all (an SFTP copy, renamed). */
    void rememberRunnerCallbacks(List<RunnerCallback> callbacks) {
        session.upload(new java.io.ByteArrayInputStream(RunnerCallback.format(callbacks).getBytes(StandardCharsets.UTF_8)),
                runnerCallbacksFile());
    }

    private String runnerCallbacksFile() {
        return file("callback-" + site.name() + ".runners");
    }

    String file(String name) {
        return head.dir() + "/" + name;
    }

    private String stateFile() {
        return file("agent-" + site.name() + ".state");
    }

    private static Optional<Running> running(String out, AgentSecret secret) {
        for (String line : out.lines().toList()) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 2 && parts[0].matches("\\d+") && parts[1].matches("\\d+")) {
                return Optional.of(new Running(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), secret));
            }
        }
        return Optional.empty();
    }
}
