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

    /**
     * koala submit follows a deployment whose master waits for a node: what it waits for is printed once
     * (and again when it changes), then the master's grant, until the instance runs.
     */
    @Test
    void aDeploymentWaitingForItsMasterSaysWhatItWaitsForOnceAsItGoes() throws Exception {
        String held = "waiting for its master: grid full: no idle node on fs2 (asked for again every 10 s)";
        java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        koala.http.JsonHttpServer runner = new koala.http.JsonHttpServer(
                new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 2);
        runner.route("GET", "/status", r -> {
            int n = polls.incrementAndGet();
            String state = n < 6 ? "DEPLOYING" : "RUNNING";
            java.util.List<String> events = n < 4 ? java.util.List.of("10:00:00 no master node: grid full")
                    : java.util.List.of("10:00:00 no master node: grid full", "10:00:20 grow 1 master [7.0.0]");
            return koala.http.Response.ok(new koala.api.runner.RunnerMessages.Status(7, "waits", state,
                    "static", java.util.List.of(), null, java.util.List.of(), events, 0, 1000,
                    n < 4 ? java.util.List.of(held) : java.util.List.of()));
        });
        runner.start();
        Path state = Files.writeString(dir.resolve("runner-7.json"), "{\"url\": \"http://127.0.0.1:" + runner.port()
                + "\", \"token\": \"secret\"}");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream was = System.out;
        String ended;
        try {
            System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
            ended = RunnerLaunch.follow(new RunnerLaunch.Launched(7, java.net.URI.create("http://127.0.0.1:"
                    + runner.port()), state, dir.resolve("runner-7.log"), 1), java.time.Duration.ofSeconds(20), false);
        } finally {
            System.setOut(was);
            runner.close();
        }

        assertThat(ended).isEqualTo("RUNNING");
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8).lines()).containsExactly(
                "  10:00:00 no master node: grid full", "  " + held, "  10:00:20 grow 1 master [7.0.0]");
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
