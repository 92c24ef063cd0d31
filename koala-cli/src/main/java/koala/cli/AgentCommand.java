package koala.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import koala.api.site.AgentSecret;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.process.AgentProcess;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Run the site agent of one SGE cell in the foreground: one DRMAA session bound to that cell, "
                + "an HTTP/JSON API on the loopback interface (prints READY <url> once it serves). Runs as the site's "
                + "agent account with the cell's environment; the scheduler starts agents itself. Every request must "
                + "carry the agent's secret: Authorization: Bearer <the secret in --secret-file>."})
final class AgentCommand implements Callable<Integer> {
    @Option(names = "--site", required = true, description = "site name from the grid configuration")
    String site;

    @Option(names = "--port", description = "HTTP port (default: the site's agent.port, 0 = any free port)")
    Integer port;

    @Option(names = "--config", description = "grid configuration (default: ${DEFAULT-VALUE})")
    Path config = KoalaHome.gridConfig();

    @Option(names = "--secret-file", description = "the agent's secret; made (readable by you only) if missing "
            + "(default: KOALA_HOME/agent-SITE.secret)")
    Path secretFile;

    @Override
    public Integer call() throws Exception {
        SiteConfig siteConfig = GridConfig.load(config).site(site);
        if (siteConfig.remote()) {
            System.err.println("koala agent: site " + site + " is remote (site." + site + ".ssh.host = "
                    + siteConfig.ssh().orElseThrow().host() + "): its agent runs on that head node, where the scheduler "
                    + "starts it over SSH");
            return 2;
        }
        int agentPort = port != null ? port : siteConfig.agentPort();
        Path secretPath = secretFile != null ? secretFile : KoalaHome.dir().resolve("agent-" + site + ".secret");
        AgentSecret secret = secret(secretPath);
        // the secret goes on the agent's input, never its command line: only the output is the terminal's
        ProcessBuilder builder = new ProcessBuilder(
                AgentProcess.commandFor(siteConfig, config.toAbsolutePath(), KoalaHome.dir(), agentPort).commandLine())
                .directory(new java.io.File("/")).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Process agent = builder.start();
        AgentProcess.handOver(agent.getOutputStream(), secret);
        System.err.println("koala agent: callers send Authorization: Bearer <the secret in " + secretPath + ">");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.descendants().forEach(ProcessHandle::destroy);
            agent.destroy();
        }));
        return agent.waitFor();
    }

    /** The secret in {@code file}, or a new one written there readable by this account only. */
    static AgentSecret secret(Path file) throws java.io.IOException {
        if (Files.exists(file)) {
            return AgentSecret.of(Files.readString(file));
        }
        KoalaHome.createPrivate(file.toAbsolutePath().getParent());
        AgentSecret secret = AgentSecret.random();
        Files.writeString(Files.createFile(file, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------"))), secret.value() + "\n");
        return secret;
    }
}
