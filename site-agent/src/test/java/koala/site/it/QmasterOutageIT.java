package koala.site.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import koala.api.site.AgentHealth;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.api.site.PilotStatus;
import koala.api.site.SiteAgentClient;
import koala.grid.SiteConfig;
import koala.http.ApiException;
import koala.process.AgentProcess;
import koala.testbed.Testbed;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** An agent started while its cell's qmaster is down says so, refuses work, and recovers. */
class QmasterOutageIT {

    @Test
    void anAgentStartedAgainstAStoppedQmasterReportsTheOutageAndRecovers() {
        SiteConfig site = TestGrid.site(1); // a local cell: this machine submits to it
        Testbed testbed = TestGrid.testbed();
        TestGrid.grid();
        testbed.stopQmaster(site.cell().cell());
        try (AgentProcess agent = TestGrid.startAgent(site)) {
            SiteAgentClient client = agent.client();

            AgentHealth down = Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(client::health, h -> !h.up() && h.reason() != null && !h.reason().contains("not checked"));
            assertThat(down.status()).isEqualTo("DOWN");
            assertThat(down.reason()).contains("qmaster");
            assertThatThrownBy(() -> client.submit(PilotSpec.of("koala-it-outage", "/bin/true")))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(503);
                        assertThat(e.getMessage()).contains("unreachable");
                    });
            assertThatThrownBy(client::snapshot)
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503));

            testbed.startQmaster(site.cell().cell());

            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> client.health().up());
            PilotStatus pilot = client.submit(PilotSpec.of("koala-it-after-outage", "/bin/true"));
            PilotStatus end = PilotsOnTwoCellsIT.awaitEnd(client, pilot);
            assertThat(end.state()).isEqualTo(PilotState.DONE);
            assertThat(end.exitStatus()).isZero();
        } finally {
            testbed.startQmaster(site.cell().cell());
        }
    }
}
