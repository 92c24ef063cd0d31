package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code koala framework ID} says when it cannot show the runner's live view. */
class RunnerLaunchTest {
    @TempDir
    Path dir;

    @Test
    void withoutTheRunnerFileTheSubmittersFileIsWhatIsMissing() {
        Path file = dir.resolve("runner-7.json");

        RunnerLaunch.Live live = RunnerLaunch.status(file);

        assertThat(live.status()).isNull();
        assertThat(live.why()).isEqualTo("its live view needs " + file + ", readable by the submitter");
    }

    @Test
    void withTheFileReadableARunnerThatRefusesTheConnectionDoesNotAnswer() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort(); // closed again before the call: nobody listens there
        }
        Path file = dir.resolve("runner-7.json");
        Files.writeString(file, "{\"url\": \"http://127.0.0.1:" + port + "\", \"token\": \"secret\"}");

        RunnerLaunch.Live live = RunnerLaunch.status(file);

        assertThat(live.status()).isNull();
        assertThat(live.why()).isEqualTo("the runner does not answer (cannot reach http://127.0.0.1:" + port
                + ": connection refused); it may have died: see its log " + dir.resolve("runner-7.log"));
    }

    @Test
    void aRunnerFileWithoutAnAddressIsSaidSo() throws Exception {
        Path file = dir.resolve("runner-7.json");
        Files.writeString(file, "{}");

        assertThat(RunnerLaunch.status(file).why()).isEqualTo("cannot read " + file + ": it gives no url or no token");
    }

    @Test
    void aRunnersDirectoryThatCannotBeMadeIsSaidSoWithWhatToDo() throws Exception {
        Path notADir = Files.writeString(dir.resolve("home"), "a file where a home should be");
        Path runners = notADir.resolve(".koala").resolve("runners");

        assertThatThrownBy(() -> RunnerLaunch.makeDir(runners)).isInstanceOf(java.io.IOException.class)
                .hasMessage("cannot make " + runners + " for the framework runner's state and the instance's token "
                        + "(Not a directory: " + notADir.resolve(".koala") + "): set KOALA_HOME to a directory "
                        + "of yours");
    }
}
