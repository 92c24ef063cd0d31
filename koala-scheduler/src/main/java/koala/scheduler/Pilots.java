package koala.scheduler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import koala.common.grid.SiteConfig;
import koala.common.http.ApiException;
import koala.common.process.JavaCommand;
import koala.common.site.PilotSpec;
import koala.common.site.SiteAgentClient;
import koala.scheduler.claiming.NodeClaim;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Claims and releases nodes through the site agents. A node's pilot runs the node launcher, which
 * calls back to this scheduler with the node's token; the pilot asks for one node with the site's
 * native specification.
 */
final class Pilots {
    private static final Logger LOG = LogManager.getLogger(Pilots.class);
    static final String LAUNCHER = "koala.node.NodeLauncher";
    /** A launcher is small and short-lived: a small heap, the simplest collector, no optimizing compiler. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** A launcher run that loads what a real one does (HTTP, JSON) and exits at once, to train the class archive. */
    static final List<String> TRAINING = List.of("--scheduler", "http://127.0.0.1:1", "--node", "training",
            "--give-up", "0");

    private final List<String> archiveOptions;
    private final Map<String, SiteAgentClient> agents;
    private final Map<String, SiteConfig> sites;
    private final List<Path> classpath;
    private final String schedulerUrl;
    private final Duration giveUp;
    private final Path logDir;

    Pilots(Map<String, SiteAgentClient> agents, Map<String, SiteConfig> sites, List<Path> classpath, String schedulerUrl,
           Duration giveUp, Path logDir) {
        this(agents, sites, classpath, List.of(), schedulerUrl, giveUp, logDir);
    }

    /** @param archiveOptions JVM options mapping a class archive of the launcher, or none */
    Pilots(Map<String, SiteAgentClient> agents, Map<String, SiteConfig> sites, List<Path> classpath,
           List<String> archiveOptions, String schedulerUrl, Duration giveUp, Path logDir) {
        this.archiveOptions = List.copyOf(archiveOptions);
        this.agents = agents;
        this.sites = sites;
        this.classpath = classpath;
        this.schedulerUrl = schedulerUrl;
        this.giveUp = giveUp;
        this.logDir = logDir;
    }

    /** Submits the node's pilot; returns its SGE job id. */
    String submit(NodeClaim node) {
        SiteConfig site = sites.get(node.site());
        List<String> args = new ArrayList<>(JVM_OPTIONS);
        args.addAll(archiveOptions);
        args.addAll(List.of("-cp", classpath.stream().map(Path::toString).collect(Collectors.joining(":")), LAUNCHER,
                "--scheduler", schedulerUrl, "--node", node.id(), "--give-up", Long.toString(giveUp.toSeconds())));
        PilotSpec spec = new PilotSpec(node.pilotName(), JavaCommand.currentJava().toString(), args,
                Map.of("KOALA_NODE_TOKEN", node.token()), site.nodeNativeSpec(),
                logDir.resolve(node.pilotName() + ".log").toString(), null, "/tmp");
        return agents.get(node.site()).submit(spec).id();
    }

    /** Kills the node's pilot; a pilot already gone is fine. */
    void kill(NodeClaim node) {
        if (node.pilot() == null) {
            return;
        }
        try {
            agents.get(node.site()).kill(node.pilot());
        } catch (ApiException e) {
            if (e.status() != 404) {
                LOG.warn("could not kill pilot {} of node {} on {}: {}", node.pilot(), node.id(), node.site(),
                        e.getMessage());
            }
        }
    }
}
