package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.common.api.FrameworkView;
import org.junit.jupiter.api.Test;

/** {@code koala framework ID} reads the runner's file where the instance's submitter keeps it. */
class FrameworkCommandsTest {
    private static FrameworkView instance(long id, String owner, String runnerState) {
        return new FrameworkView(id, "demo", "static", Map.of(), "http://127.0.0.1:7601", "RUNNING", List.of("fs0"),
                null, Map.of("master", 1), Instant.parse("2026-11-26T10:00:00Z"), List.of(), null, owner, runnerState);
    }

    @Test
    void alicesInstanceIsReadFromAlicesFileWhoeverAsks() {
        // root runs this command: its own runners' directory is /var/lib/koala/runners, alice's is not
        FrameworkView alices = instance(7, "alice", "/home/alice/.koala/runners/runner-7.json");

        assertThat(FrameworkCommands.One.runnerFile(alices)).isEqualTo(Path.of("/home/alice/.koala/runners/runner-7.json"));
    }

    @Test
    void anInstanceRootStartedForAliceIsReadFromRootsFile() {
        FrameworkView forAlice = instance(8, "alice", "/var/lib/koala/runners/runner-8.json");

        assertThat(FrameworkCommands.One.runnerFile(forAlice)).isEqualTo(Path.of("/var/lib/koala/runners/runner-8.json"));
    }

    @Test
    void withoutAFileOnRecordTheCallersOwnDirectoryIsTheGuess() {
        assertThat(FrameworkCommands.One.runnerFile(instance(9, "alice", null)))
                .isEqualTo(RunnerLaunch.dir().resolve("runner-9.json"));
    }
}
