package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pid file names a running daemon only while that number is the daemon's process. A testbed whose
 * fs0-n2 execd had died kept its pid file; the kernel had since given that number to a thread of
 * fs1-n2's execd, so {@code testbed up} took fs0-n2's execd for running and never started it again
 * (its queue instance stayed unknown, "15 of 16 queue instances of fs0.q ready").
 */
class PidFileTest {
    @TempDir
    Path dir;

    @Test
    void aProcessRunningTheDaemonIsFound() throws IOException {
        long pid = ProcessHandle.current().pid();
        Path file = Files.writeString(dir.resolve("java.pid"), pid + "\n");

        assertThat(PidFile.daemon(file, "java")).contains(pid);
        assertThat(PidFile.daemon(file, "sge_execd")).isEmpty();
    }

    @Test
    void aNumberThatIsAThreadOfAProcessNamesNoDaemon() throws IOException {
        long pid = ProcessHandle.current().pid();
        long thread;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            thread = tasks.map(t -> Long.parseLong(t.getFileName().toString())).filter(t -> t != pid).findFirst()
                    .orElseThrow();
        }
        Path file = Files.writeString(dir.resolve("java.pid"), thread + "\n");

        assertThat(PidFile.daemon(file, "java")).isEmpty();
    }

    @Test
    void aMissingOrGarbledFileNamesNoDaemon() throws IOException {
        assertThat(PidFile.daemon(dir.resolve("none.pid"), "java")).isEmpty();
        assertThat(PidFile.daemon(Files.writeString(dir.resolve("bad.pid"), "x\n"), "java")).isEmpty();
    }
}
