package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import koala.scheduler.it.TestHosts.Signal;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TestHosts} on processes of this test's own (no testbed host is touched): signals reach the
 * process they name, a refused signal and a command that hangs fail naming what was asked.
 */
class TestHostsTest {
    private Process sleeper;

    @AfterEach
    void stop() {
        if (sleeper != null) {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void stopContinueAndKillReachTheProcess() throws Exception {
        sleeper = new ProcessBuilder("sleep", "60").start();
        long pid = sleeper.pid();
        assertThat(TestHosts.commandLine(pid)).hasValue("sleep 60 ");

        TestHosts.signal(Signal.STOP, pid);
        awaitState(pid, "T");
        TestHosts.signal(Signal.CONT, pid);
        awaitState(pid, "S");
        TestHosts.signal(Signal.KILL, pid);
        assertThat(sleeper.waitFor()).as("killed by signal 9").isEqualTo(128 + 9);
        assertThat(TestHosts.commandLine(pid)).isEmpty();
    }

    @Test
    void aSignalToAnEndedProcessFailsNamingItUnlessThoseLeftWillDo() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        sleeper = new ProcessBuilder("sleep", "60").start();

        assertThatThrownBy(() -> TestHosts.signal(Signal.STOP, ended.pid())).isInstanceOf(IOException.class)
                .hasMessageStartingWith("`kill -STOP " + ended.pid() + "` exited with 1");
        TestHosts.signalThoseLeft(Signal.KILL, List.of(ended.pid(), sleeper.pid()));
        assertThat(sleeper.waitFor()).as("the one left, killed by signal 9").isEqualTo(128 + 9);
    }

    @Test
    void aCommandThatHangsIsKilledAtItsTimeOut() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> TestHosts.run(Duration.ofMillis(300), List.of("sleep", "30")))
                .isInstanceOf(IOException.class).hasMessageStartingWith("`sleep 30` did not end within 300 ms (killed)");
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until it failed").isLessThan(5_000);
    }

    private static void awaitState(long pid, String state) {
        Awaitility.await("process " + pid + " in state " + state).atMost(Duration.ofSeconds(5))
                .until(() -> Files.readString(Path.of("/proc", Long.toString(pid), "stat")).split(" ")[2].equals(state));
    }
}
