package koala.scheduler.remote;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import koala.common.grid.SiteConfig;
import koala.common.grid.SshConfig;
import koala.common.process.AgentProcess;
import koala.common.process.JavaCommand;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Puts a site agent on a head node, through an open {@link HeadNodeSession}: checks the head node,
 * brings its jars up to date, and finds the agent already running there (from its state file) or
 * starts one, detached from the SSH session ({@code nohup setsid}), so that it outlives a lost
 * connection and the scheduler re-attaches to it.
 *
 * <p>Files on the head node, under the site's {@code ssh.dir}: {@code lib/} (jars by checksum),
 * {@code site-S.properties} (the site as the agent reads it), {@code agent-S.state}
 * ({@code PORT PID} of the running agent), {@code callback-S.port}, {@code native-S/libdrmaa.so},
 * {@code logs/agent-S.log} and {@code pilots/} (the pilots' output).
 */
final class RemoteAgent {
    private static final Logger LOG = LogManager.getLogger(RemoteAgent.class);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final String IMAGE = "-Dkoala.image=";

    /** Where the agent serves on the head node's loopback, and its process there. */
    record Running(int port, long pid) {
    }

    private final SiteConfig site;
    private final SshConfig ssh;
    private final HeadNodeSession session;
    private final HeadNodeProbe.HeadNode head;

    private RemoteAgent(SiteConfig site, HeadNodeSession session, HeadNodeProbe.HeadNode head) {
        this.site = site;
        this.ssh = site.ssh().orElseThrow();
        this.session = session;
        this.head = head;
    }

    /** Checks the head node; an {@link IllegalStateException} lists what is missing there. */
    static RemoteAgent probe(SiteConfig site, HeadNodeSession session) {
        HeadNodeSession.Result r = session.run(HeadNodeProbe.script(site), COMMAND_TIMEOUT);
        return new RemoteAgent(site, session, HeadNodeProbe.read(site, r.out()));
    }

    HeadNodeProbe.HeadNode head() {
        return head;
    }

    /** Sends the jars missing on the head node or differing there; returns their paths there, in order. */
    List<String> sync(List<RuntimeJars.Jar> jars) {
        String lib = head.dir() + "/lib";
        List<String> names = jars.stream().map(RuntimeJars.Jar::remoteName).toList();
        HeadNodeSession.Result listing = session.run("mkdir -p " + Sh.quote(lib) + " " + Sh.quote(head.dir() + "/logs")
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
        String f = Sh.quote(file("agent-" + site.name() + ".state"));
        HeadNodeSession.Result r = session.run("if [ -f " + f + " ]; then read port pid < " + f + " && kill -0 \"$pid\" "
                + "2>/dev/null && cmd=$(tr '\\0' ' ' < /proc/$pid/cmdline) && case \"$cmd\" in *" + AgentProcess.MAIN_CLASS
                + "*) case \"$cmd\" in *" + IMAGE + image + "*) echo \"$port $pid\";; *) echo \"stale $pid\";; esac;; "
                + "esac; fi; true", COMMAND_TIMEOUT);
        if (r.out().startsWith("stale ")) {
            long pid = Long.parseLong(r.out().substring(6).trim());
            LOG.info("site {}: the agent on {} (pid {}) runs an older build; replacing it", site.name(), ssh.host(), pid);
            stop(new Running(0, pid));
            return Optional.empty();
        }
        return running(r.out());
    }

    /** Names the set of jars an agent runs, on its command line: {@code -Dkoala.image=<digest>}. */
    static String image(List<String> classpath) {
        try {
            return RuntimeJars.sha256(new java.io.ByteArrayInputStream(String.join(":", classpath)
                    .getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether the agent process {@code pid} still runs. */
    boolean alive(long pid) {
        return session.run("kill -0 " + pid, COMMAND_TIMEOUT).ok();
    }

    /** Starts an agent on the head node and waits until it serves. */
    Running start(List<String> classpath) {
        String nativeDir = file("native-" + site.name());
        String state = file("agent-" + site.name() + ".state");
        String log = file("logs/agent-" + site.name() + ".log");
        String config = file("site-" + site.name() + ".properties");
        session.upload(new java.io.ByteArrayInputStream(site.agentProperties().getBytes(StandardCharsets.UTF_8)), config);
        List<Path> cp = new ArrayList<>(classpath.stream().map(Path::of).toList());
        cp.add(site.drmaa().jar());
        JavaCommand java = AgentProcess.command(site, Path.of(head.java()), cp, Path.of(nativeDir), List.of("--config",
                config, "--site", site.name(), "--port", Integer.toString(site.agentPort()), "--state-file", state,
                "--idle-exit", Long.toString(ssh.agentIdleExit().toSeconds())));
        List<String> jvm = new ArrayList<>(java.jvmOptions());
        jvm.add(IMAGE + image(classpath));
        java = java.withJvmOptions(jvm);
        String script = String.join("\n",
                "cd / && mkdir -p " + Sh.quote(nativeDir) + " && ln -sfn " + Sh.quote(site.drmaa().library().toString())
                        + " " + Sh.quote(nativeDir + "/libdrmaa.so") + " && rm -f " + Sh.quote(state) + " || exit 1",
                "nohup setsid " + Sh.words(java.commandLine()) + " >> " + Sh.quote(log) + " 2>&1 < /dev/null &",
                "pid=$!; i=0",
                "while [ $i -lt " + START_TIMEOUT.toSeconds() * 10 + " ]; do",
                "  [ -s " + Sh.quote(state) + " ] && { cat " + Sh.quote(state) + "; exit 0; }",
                "  kill -0 $pid 2>/dev/null || { echo \"the agent exited; its log " + log + " ends:\"; tail -n 12 "
                        + Sh.quote(log) + "; exit 1; }",
                "  sleep 0.1; i=$((i+1))",
                "done",
                "echo \"the agent was not ready within " + START_TIMEOUT.toSeconds() + " s; see " + log + "\"; exit 1");
        HeadNodeSession.Result r = session.run(script, START_TIMEOUT.plusSeconds(10));
        Running agent = running(r.out()).filter(x -> r.ok()).orElseThrow(() -> new IllegalStateException("site "
                + site.name() + ": could not start the agent on " + ssh.host() + ": " + (r.out() + r.err()).strip()));
        LOG.info("site {}: started an agent on {} (pid {}, port {} there)", site.name(), ssh.host(), agent.pid(), agent.port());
        return agent;
    }

    /** Stops the agent (TERM: it removes its state file and closes its DRMAA session). */
    void stop(Running agent) {
        session.run("kill " + agent.pid() + " 2>/dev/null; true", COMMAND_TIMEOUT);
    }

    /** The port pilots call back on, as last granted on this head node (kept there across restarts). */
    Optional<Integer> callbackPort() {
        HeadNodeSession.Result r = session.run("cat " + Sh.quote(file("callback-" + site.name() + ".port"))
                + " 2>/dev/null; true", COMMAND_TIMEOUT);
        try {
            return Optional.of(Integer.parseInt(r.out().trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    void rememberCallbackPort(int port) {
        session.run("echo " + port + " > " + Sh.quote(file("callback-" + site.name() + ".port")), COMMAND_TIMEOUT);
    }

    String file(String name) {
        return head.dir() + "/" + name;
    }

    private static Optional<Running> running(String out) {
        for (String line : out.lines().toList()) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 2 && parts[0].matches("\\d+") && parts[1].matches("\\d+")) {
                return Optional.of(new Running(Integer.parseInt(parts[0]), Long.parseLong(parts[1])));
            }
        }
        return Optional.empty();
    }
}
