package koala.api.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.common.json.Json;
import org.junit.jupiter.api.Test;

/** A pilot as the scheduler sends it to a site agent: its claim in no manager's words beside the site's own request. */
class PilotSpecTest {
    /** 4 cores, 8 GiB and the launcher's 128 MiB, a GPU, 10 minutes and a minute's grace, on fs0-n3 for alice. */
    private final PilotNeeds needs = new PilotNeeds(4, 8320, 1, Duration.ofMinutes(11), "fs0-n3", "alice");

    @Test
    void itsNeedsGoOverTheWireAndComeBackAsTheyWere() throws Exception {
        PilotSpec spec = new PilotSpec("koala-k3x9q0-1-0-0-a1", "/usr/bin/java", List.of("-cp", "a.jar"),
                Map.of("MALLOC_ARENA_MAX", "2"), needs, "-P koala", "/tmp/p.log", null, "/tmp", "t0k3n", "/tmp/p.token");

        String json = Json.write(spec);
        PilotSpec read = Json.mapper().readValue(json, PilotSpec.class);

        assertThat(json).contains("\"needs\":{\"cores\":4,\"memoryMiB\":8320,\"gpus\":1,\"wallTime\":\"PT11M\","
                + "\"host\":\"fs0-n3\",\"account\":\"alice\"}", "\"nativeSpec\":\"-P koala\"");
        assertThat(read).isEqualTo(spec);
    }

    @Test
    void aSpecWithoutNeedsClaimsNothingBeyondOneCore() throws Exception {
        PilotSpec read = Json.mapper().readValue("{\"name\":\"koala-x\",\"command\":\"/bin/true\"}", PilotSpec.class);

        assertThat(read.needs()).isEqualTo(PilotNeeds.NODE);
        assertThat(PilotSpec.of("koala-x", "/bin/true").needs()).isEqualTo(PilotNeeds.NODE);
        assertThat(Json.write(PilotNeeds.NODE)).isEqualTo("{\"cores\":1,\"memoryMiB\":0,\"gpus\":0}");
    }

    @Test
    void theWithMethodsKeepItsNeeds() {
        PilotSpec spec = PilotSpec.of("koala-x", "/bin/true").withNeeds(needs).withNativeSpec("-l exclusive=true")
                .withOutput("/tmp/o", "/tmp/e").withEnv(Map.of("A", "1")).withSecret("s", "/tmp/s");

        assertThat(spec.needs()).isEqualTo(needs);
        assertThat(spec.nativeSpec()).isEqualTo("-l exclusive=true");
        assertThat(needs.withHost(null).withAccount(null))
                .isEqualTo(new PilotNeeds(4, 8320, 1, Duration.ofMinutes(11), null, null));
    }

    @Test
    void aClaimOfNoCoreNegativeMemoryOrNoTimeIsRefused() {
        assertThatThrownBy(() -> new PilotNeeds(0, 0, 0, null, null, null))
                .hasMessage("a pilot claims at least one core, not 0");
        assertThatThrownBy(() -> new PilotNeeds(1, -1, 0, null, null, null)).hasMessageContaining("-1 MiB");
        assertThatThrownBy(() -> new PilotNeeds(1, 0, 0, Duration.ZERO, null, null))
                .hasMessage("a pilot's wall time is longer than nothing, not PT0S");
    }
}
