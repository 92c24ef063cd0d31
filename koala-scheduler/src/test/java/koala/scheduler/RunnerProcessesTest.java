package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import koala.common.json.Json;
import org.junit.jupiter.api.Test;

/** Whom a supervised runner is started again as, and the command that does it. */
class RunnerProcessesTest {
    private static final RunnerSupervisor.Watched ALICES = new RunnerSupervisor.Watched(7,
            URI.create("http://198.18.0.1:41234"), Path.of("/home/alice/.koala/runners/runner-7.json"), "alice");

    private static RunnerProcesses.State state(String fileOwner, String actingFor) throws IOException {
        String launch = actingFor == null ? "{}" : "{\"actingFor\":\"" + actingFor + "\"}";
        return new RunnerProcesses.State(Json.mapper().readTree("{\"pid\":42,\"launch\":" + launch + "}"), fileOwner);
    }

    @Test
    void aRunnerOfTheOwnersOwnRunsAsTheOwner() throws IOException {
        assertThat(RunnerProcesses.account(ALICES, state("alice", null))).isEqualTo("alice");
    }

    @Test
    void aRunnerRootStartedForTheOwnerRunsAsRoot() throws IOException {
        assertThat(RunnerProcesses.account(ALICES, state("root", "alice"))).isEqualTo("root");
        // the scheduler's own account needs no runuser; another account does
        String self = System.getProperty("user.name");
        assertThat(RunnerProcesses.command(ALICES, self, Path.of("/tmp/runner-7.log"), Path.of("/usr/bin/java"),
                List.of(Path.of("/opt/koala/a.jar")), List.of())).startsWith("setsid", "/bin/sh")
                .endsWith("--adopt", ALICES.state().toString());
        assertThat(RunnerProcesses.command(ALICES, "alice", Path.of("/tmp/runner-7.log"), Path.of("/usr/bin/java"),
                List.of(Path.of("/opt/koala/a.jar")), List.of())).startsWith("setsid", "runuser", "-u", "alice", "--");
        // one started in the place of another host's runner: its generation and this host's address, from the store
        RunnerSupervisor.Watched onB = ALICES.replacedBy("koala-b", URI.create("http://198.18.0.2:41234"), 3);
        assertThat(RunnerProcesses.command(onB, "alice", Path.of("/tmp/runner-7.log"), Path.of("/usr/bin/java"),
                List.of(Path.of("/opt/koala/a.jar")), List.of())).endsWith("--adopt", ALICES.state().toString(),
                "--generation", "3", "--url", "http://198.18.0.2:41234");
    }

    @Test
    void aFileOfSomeoneElseOrRootsForAnotherUserIsRefused() throws IOException {
        assertThatThrownBy(() -> RunnerProcesses.account(ALICES, state("bob", "alice")))
                .hasMessage("it is not a file of the instance's owner alice (nor of root's runner acting for them)");
        assertThatThrownBy(() -> RunnerProcesses.account(ALICES, state("root", "bob"))).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> RunnerProcesses.account(ALICES, state("root", null))).isInstanceOf(IOException.class);
    }
}
