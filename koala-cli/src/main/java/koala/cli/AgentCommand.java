package koala.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import koala.common.grid.GridConfig;
import koala.common.grid.KoalaHome;
import koala.common.grid.SiteConfig;
import koala.common.process.AgentProcess;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Run the site agent of one SGE cell in the foreground: one DRMAA session bound to that cell, "
                + "an HTTP/JSON API on the loopback interface (prints READY <url> once it serves). Runs as the site's "
                + "agent account with the cell's environment; the scheduler starts agents itself."})
final class AgentCommand implements Callable<Integer> {
    @Option(names = "--site", required = true, description = "site name from the grid configuration")
    String site;

    @Option(names = "--port", description = "HTTP port (default: the site's agent.port, 0 = any free port)")
    Integer port;

    @Option(names = "--config", description = "grid configuration (default: ${DEFAULT-VALUE})")
    Path config = KoalaHome.gridConfig();

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
        ProcessBuilder builder = new ProcessBuilder(
                AgentProcess.commandFor(siteConfig, config.toAbsolutePath(), KoalaHome.dir(), agentPort).commandLine())
                .directory(new java.io.File("/")).inheritIO();
        Process agent = builder.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.descendants().forEach(ProcessHandle::destroy);
            agent.destroy();
        }));
        return agent.waitFor();
    }
}
