package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import koala.api.site.AgentSecret;
import koala.grid.CellEnvironment;
import koala.grid.DrmaaInstall;
import koala.grid.SiteConfig;
import koala.grid.SlurmEnvironment;
import koala.grid.SshConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the agent's secret reaches a head node's agent, and how a reconnecting scheduler reads it back. */
class RemoteAgentTest {
    private static final SiteConfig SITE = new SiteConfig("fs2", new CellEnvironment(Path.of("/var/lib/gridengine"),
            "fs2", 6464, 6465, Path.of("/usr/bin")), "koala", 0, "", 8, new DrmaaInstall(Path.of("/usr/share/java/drmaa.jar"),
            Path.of("/usr/lib/libdrmaa.so.1.0"), Optional.empty()), Optional.of(new SshConfig("head", 22, "koala",
            Path.of("/k"), Path.of("/kh"), true, ".koala", "java", Duration.ofMinutes(10), Optional.empty())));
    /** A Slurm cluster behind its head node: the cell and DRMAA keys are the defaults, which it does not use. */
    private static final SiteConfig SLURM_SITE = new SiteConfig("fs3", new CellEnvironment(Path.of("/var/lib/gridengine"),
            "fs3", 6444, 6445, Path.of("/usr/bin")), "koala", 0, "", 4, DrmaaInstall.debian(), Optional.of(new SshConfig(
            "fs3-head", 22, "koala", Path.of("/k"), Path.of("/kh"), true, ".koala", "java", Duration.ofMinutes(10),
            Optional.empty())), Optional.empty(), 1, 1, Optional.of(new SlurmEnvironment(
            Path.of("/etc/slurm-fs3/slurm.conf"), Path.of("/opt/slurm/bin"))));
    private static final List<String> JARS = List.of("/home/koala/.koala/lib/abc-koala.jar");

    @TempDir
    Path dir;

    private final AgentSecret secret = AgentSecret.random();
    private Long started;

    @AfterEach
    void stopFakeAgent() {
        if (started != null) {
            ProcessHandle.of(started).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void theSecretGoesOnTheChannelsInputAndNotIntoTheCommand() {
        LocalShell shell = new LocalShell(command -> new HeadNodeShell.Result(0, "41234 777\n", ""));
        RemoteAgent agent = new RemoteAgent(SITE, shell, new HeadNodeProbe.HeadNode("/home/koala/.koala", "/usr/bin/java", "fs2"));

        RemoteAgent.Running running = agent.start(JARS, secret, "fs2-head");

        assertThat(running).isEqualTo(new RemoteAgent.Running(41234, 777, secret));
        LocalShell.Call start = shell.calls.get(0);
        assertThat(new String(start.input(), StandardCharsets.UTF_8)).isEqualTo(secret.value() + "\n");
        assertThat(start.command()).doesNotContain(secret.value())
                .startsWith("IFS= read -r secret ")
                .contains("printf '%s\\n' \"$secret\" | nohup setsid '/usr/bin/env'")
                .contains("'--relay-host' 'fs2-head'");
    }

    /**
     * The start script run by a real shell, with a stand-in for Java that does what the agent does
     * with its input: writes its line, with the secret it read, to the state file.
     */
    @Test
    void theStartScriptHandsTheSecretToTheAgentOnItsInputAndKeepsTheRelays() throws Exception {
        Path java = dir.resolve("java");
        Files.writeString(java, String.join("\n", "#!/bin/sh",
                "while [ $# -gt 0 ]; do [ \"$1\" = --state-file ] && f=$2; shift; done",
                "IFS= read -r s",
                "printf 'agent 41234 %s %s\\n' $$ \"$s\" >> \"$f\"",
                "exec sleep 30", ""));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        Files.createDirectories(dir.resolve("logs")); // made by sync() before a start
        Path state = dir.resolve("agent-fs2.state");
        Files.writeString(state, "agent 1 2 " + AgentSecret.random().value() + "\nrelay 45001 47400\n");
        RemoteAgent agent = new RemoteAgent(SITE, new LocalShell(), new HeadNodeProbe.HeadNode(dir.toString(), java.toString(), "fs2"));

        RemoteAgent.Running running = agent.start(JARS, secret, "fs2-head");
        started = running.pid();

        assertThat(running.port()).isEqualTo(41234);
        assertThat(Files.readString(state)).isEqualTo("relay 45001 47400\nagent 41234 " + running.pid() + " "
                + secret.value() + "\n");
        assertThat(ProcessHandle.of(running.pid()).orElseThrow().info().commandLine().orElse("")).doesNotContain(secret.value());
    }

    @Test
    void aReconnectingSchedulerReadsTheSecretFromTheStateFile() {
        String image = RemoteAgent.image(JARS, "fs2-head");
        String out = "relay 45001 47400\nagent 41234 777 " + secret.value() + "\n"
                + "cmdline /usr/bin/java -Xmx256m -Dkoala.image=" + image + " -cp x koala.site.AgentMain --site fs2\n";
        LocalShell shell = new LocalShell(command -> new HeadNodeShell.Result(0, out, ""));
        RemoteAgent agent = new RemoteAgent(SITE, shell, new HeadNodeProbe.HeadNode("/home/koala/.koala", "/usr/bin/java", "fs2"));

        assertThat(agent.find(image)).contains(new RemoteAgent.Running(41234, 777, secret));
        assertThat(shell.calls).hasSize(1);
    }

    @Test
    void anAgentWhoseRelaysListenElsewhereIsOfAnotherImage() {
        assertThat(RemoteAgent.image(JARS, "fs2-head")).isNotEqualTo(RemoteAgent.image(JARS, "198.18.0.3"))
                .isEqualTo(RemoteAgent.image(List.copyOf(JARS), "fs2-head")).hasSize(16);
    }

    /**
     * A scheduler on another host may name the same jars otherwise (a standby's published image numbers its
     * entries): the head node's copies are named by their checksums, and only those make the image, so the
     * agent the first scheduler started is kept.
     */
    @Test
    void theImageIsTheJarsContentsWhateverTheirNames() {
        String sha = "0123456789abcdef0123";
        String here = RemoteAgent.image(List.of("/home/koala/.koala/lib/" + sha + "-koala-scheduler-classes.jar"), "fs2-head");
        String there = RemoteAgent.image(List.of("/home/koala/.koala/lib/" + sha + "-3-classes.jar"), "fs2-head");
        String otherBuild = RemoteAgent.image(List.of("/home/koala/.koala/lib/" + "f".repeat(20) + "-3-classes.jar"), "fs2-head");

        assertThat(there).isEqualTo(here);
        assertThat(otherBuild).isNotEqualTo(here);
    }

    /** The runners' call-backs in the agent's directory on the head node, written whole and read back by a shell. */
    @Test
    void theRunnersCallBacksAreAFileInTheAgentsDirectory() throws Exception {
        RemoteAgent agent = new RemoteAgent(SITE, new LocalShell(), new HeadNodeProbe.HeadNode(dir.toString(), "java", "fs2"));
        assertThat(agent.runnerCallbacks()).as("no file yet").isEmpty();
        RunnerCallback runner = new RunnerCallback(new CallBacks.Endpoint("koala-host", 41234), 45002, 47401, "koala-host");

        agent.rememberRunnerCallbacks(List.of(runner));

        assertThat(Files.readString(dir.resolve("callback-fs2.runners"))).isEqualTo("koala-host:41234 45002 47401 koala-host\n");
        assertThat(agent.runnerCallbacks()).containsExactly(runner);
        agent.rememberRunnerCallbacks(List.of());
        assertThat(Files.readString(dir.resolve("callback-fs2.runners"))).isEmpty();
    }

    @Test
    void theCallBacksPortsAreKeptAsForwardAndRelayAndAnOlderFileHoldsTheForwardAlone() {
        assertThat(RemoteAgent.parseCallbackPorts("45001 47400\n")).contains(new RemoteAgent.CallbackPorts(45001, 47400));
        assertThat(RemoteAgent.parseCallbackPorts("45001\n")).contains(new RemoteAgent.CallbackPorts(45001, 0));
        assertThat(RemoteAgent.parseCallbackPorts("")).isEmpty();
    }

    @Test
    void anAgentOfAnotherBuildIsStoppedAndOneWhosePidIsGoneOrReusedIsNone() {
        String agentLine = "agent 41234 777 " + secret.value() + "\n";

        assertThat(RemoteAgent.lookUp(agentLine + "cmdline java -Dkoala.image=0123456789abcdef koala.site.AgentMain\n",
                "fedcba9876543210")).isEqualTo(new RemoteAgent.Lookup.Stale(777));
        assertThat(RemoteAgent.lookUp(agentLine, "fedcba9876543210")).isEqualTo(new RemoteAgent.Lookup.None());
        assertThat(RemoteAgent.lookUp(agentLine + "cmdline /usr/sbin/cron\n", "x")).isEqualTo(new RemoteAgent.Lookup.None());
        assertThat(RemoteAgent.lookUp("relay 45001 47400\n", "x")).isEqualTo(new RemoteAgent.Lookup.None());

        LocalShell shell = new LocalShell(command -> new HeadNodeShell.Result(0, command.startsWith("[ -f")
                ? agentLine + "cmdline java -Dkoala.image=0123456789abcdef koala.site.AgentMain\n" : "", ""));
        RemoteAgent agent = new RemoteAgent(SITE, shell, new HeadNodeProbe.HeadNode("/home/koala/.koala", "/usr/bin/java", "fs2"));
        assertThat(agent.find("fedcba9876543210")).isEmpty();
        assertThat(shell.calls.get(1).command()).isEqualTo("kill 777 2>/dev/null; true");
    }

    @Test
    void theFindScriptReadsTheFileAndTheLiveProcessCommandLine() throws Exception {
        Path state = dir.resolve("agent-fs2.state");
        long pid = ProcessHandle.current().pid(); // a live process; its command line is not an agent's
        Files.writeString(state, "agent 41234 " + pid + " " + secret.value() + "\n");
        LocalShell shell = new LocalShell();
        RemoteAgent agent = new RemoteAgent(SITE, shell, new HeadNodeProbe.HeadNode(dir.toString(), "/usr/bin/java", "fs2"));

        assertThat(agent.find("x")).isEmpty();
        HeadNodeShell.Result r = shell.run(shell.calls.get(0).command(), Duration.ofSeconds(10), null);
        assertThat(r.out()).startsWith("agent 41234 " + pid + " " + secret.value() + "\ncmdline ").contains("java");
    }

    /**
     * An SGE cell's agent: its libdrmaa linked as {@code native-S/libdrmaa.so}, the cell's variables, and
     * the head node's DRMAA jar after the shipped ones.
     */
    @Test
    void anSgeCellsAgentRunsWithTheCellsEnvironmentAndItsDrmaa() {
        RemoteAgent agent = new RemoteAgent(SITE, new LocalShell(), new HeadNodeProbe.HeadNode("/home/koala/.koala",
                "/usr/bin/java", "fs2"));

        List<String> script = agent.startScript(JARS, "fs2-head").lines().toList();

        assertThat(script.get(1)).isEqualTo("cd / && mkdir -p '/home/koala/.koala/native-fs2' && ln -sfn "
                + "'/usr/lib/libdrmaa.so.1.0' '/home/koala/.koala/native-fs2/libdrmaa.so' || exit 1");
        assertThat(script.get(3)).isEqualTo("printf '%s\\n' \"$secret\" | nohup setsid '/usr/bin/env' "
                + "'SGE_ROOT=/var/lib/gridengine' 'SGE_CELL=fs2' 'SGE_QMASTER_PORT=6464' 'SGE_EXECD_PORT=6465' "
                + "'/usr/bin/java' '-Xmx256m' '-XX:+UseSerialGC' '-Dkoala.image=" + RemoteAgent.image(JARS, "fs2-head")
                + "' '-Djava.library.path=/home/koala/.koala/native-fs2' "
                + "'-cp' '/home/koala/.koala/lib/abc-koala.jar:/usr/share/java/drmaa.jar' 'koala.site.AgentMain' "
                + "'--config' '/home/koala/.koala/site-fs2.properties' '--site' 'fs2' '--port' '0' "
                + "'--state-file' '/home/koala/.koala/agent-fs2.state' '--idle-exit' '600' '--relay-host' 'fs2-head' "
                + ">> '/home/koala/.koala/logs/agent-fs2.log' 2>&1 &");
    }

    /**
     * A Slurm site's agent: {@code SLURM_CONF} as a local one gets it, no libdrmaa and no DRMAA jar (its
     * commands are found in {@code slurm.bin} by the agent itself, so the head node's PATH stays as it is).
     */
    @Test
    void aSlurmSitesAgentRunsWithSlurmConfAndNoDrmaa() {
        RemoteAgent agent = new RemoteAgent(SLURM_SITE, new LocalShell(), new HeadNodeProbe.HeadNode("/home/koala/.koala",
                "/usr/bin/java", "fs3"));

        String whole = agent.startScript(JARS, "fs3-head");
        List<String> script = whole.lines().toList();

        assertThat(script.get(1)).isEqualTo("cd / || exit 1");
        assertThat(script.get(3)).isEqualTo("printf '%s\\n' \"$secret\" | nohup setsid '/usr/bin/env' "
                + "'SLURM_CONF=/etc/slurm-fs3/slurm.conf' "
                + "'/usr/bin/java' '-Xmx256m' '-XX:+UseSerialGC' '-Dkoala.image=" + RemoteAgent.image(JARS, "fs3-head")
                + "' '-cp' '/home/koala/.koala/lib/abc-koala.jar' 'koala.site.AgentMain' "
                + "'--config' '/home/koala/.koala/site-fs3.properties' '--site' 'fs3' '--port' '0' "
                + "'--state-file' '/home/koala/.koala/agent-fs3.state' '--idle-exit' '600' '--relay-host' 'fs3-head' "
                + ">> '/home/koala/.koala/logs/agent-fs3.log' 2>&1 &");
        assertThat(whole).doesNotContain("drmaa").doesNotContain("native-fs3").doesNotContain("LD_PRELOAD");
    }

    /** What the scheduler uploads as {@code site-S.properties} for a Slurm site's agent: its manager and cluster. */
    @Test
    void aSlurmSitesAgentReadsItsManagerAndClusterFromItsConfiguration() {
        LocalShell shell = new LocalShell(command -> new HeadNodeShell.Result(0, "41234 777\n", ""));
        RemoteAgent agent = new RemoteAgent(SLURM_SITE, shell, new HeadNodeProbe.HeadNode(dir.toString(), "/usr/bin/java",
                "fs3"));

        agent.start(JARS, secret, "fs3-head");

        assertThat(dir.resolve("site-fs3.properties")).content().contains("site.fs3.manager = slurm\n"
                + "site.fs3.slurm.conf = /etc/slurm-fs3/slurm.conf\nsite.fs3.slurm.bin = /opt/slurm/bin\n")
                .doesNotContain("drmaa").doesNotContain("sge.");
    }
}
