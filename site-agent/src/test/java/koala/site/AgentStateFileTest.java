package koala.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import koala.api.site.AgentSecret;
import koala.api.site.AgentState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileTest {
    @TempDir
    Path dir;

    private final AgentSecret secret = AgentSecret.random();

    @Test
    void theFileHoldsTheSecretSoOnlyItsAccountMayReadIt() throws Exception {
        AgentStateFile file = new AgentStateFile(dir.resolve("agent-fs2.state"));

        file.update(s -> s.serving(new AgentState.Serving(41234, 777, secret)));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path()))).isEqualTo("rw-------");
        assertThat(Files.readString(file.path())).isEqualTo("agent 41234 777 " + secret.value() + "\n");
        assertThat(file.read().serving()).contains(new AgentState.Serving(41234, 777, secret));
    }

    @Test
    void aStoppingAgentTakesOutItsOwnLineAndLeavesTheRelays() throws Exception {
        AgentStateFile file = new AgentStateFile(dir.resolve("agent-fs2.state"));
        file.update(s -> s.serving(new AgentState.Serving(41234, 777, secret))
                .withRelays(List.of(new AgentState.Relay(45001, 47400))));

        file.stopped(778); // another agent's pid: the line is not ours
        assertThat(file.read().serving()).isPresent();
        file.stopped(777);

        assertThat(Files.readString(file.path())).isEqualTo("relay 45001 47400\n");
    }

    @Test
    void noFileIsAnEmptyState() {
        assertThat(new AgentStateFile(dir.resolve("none")).read()).isEqualTo(AgentState.empty());
    }
}
