package koala.site.it;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import koala.api.site.SiteAgentClient;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.process.AgentProcess;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import koala.testbed.TestbedStatus;
import org.awaitility.Awaitility;

/**
 * The real SGE testbed the integration tests run on: the one that is up, or the default one brought
 * up now (packages, account, three cells), exactly as {@code bin/koala testbed up} would.
 */
final class TestGrid {
    private static GridConfig grid;

    private TestGrid() {
    }

    static synchronized GridConfig grid() {
        if (grid == null) {
            Testbed testbed = testbed();
            TestbedStatus status = testbed.status();
            if (status.cells().size() < 3 || !status.up()) {
                testbed.up(TestbedPlan.of(null, List.of(), 1, null));
            }
            grid = GridConfig.load(testbed.gridConfig());
        }
        return grid;
    }

    static Testbed testbed() {
        return new Testbed(KoalaHome.dir(), new Progress(new PrintStream(System.out), InstantSource.system()),
                Poll.system());
    }

    static SiteConfig site(int index) {
        return grid().sites().get(index);
    }

    static AgentProcess startAgent(SiteConfig site) {
        return AgentProcess.start(site, grid().file(), KoalaHome.dir(), 0, Duration.ofSeconds(60));
    }

    static SiteAgentClient awaitUp(AgentProcess agent) {
        SiteAgentClient client = agent.client();
        Awaitility.await("agent " + agent.site().name() + " UP").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200)).until(() -> client.health().up());
        return client;
    }

    static Path koalaHome() {
        return KoalaHome.dir();
    }
}
