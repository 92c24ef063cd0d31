package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An SGE daemon's pid file counts only for a live process of that daemon working in the file's
 * directory (a thread's number is {@link PidFileTest}'s case); this JVM stands in for the daemon,
 * working in the module's directory.
 */
class DaemonPidTest {
    private static final long SELF = ProcessHandle.current().pid();
    private static final String COMMAND = ProcessHandle.current().info().command().orElseThrow();
    private static final String DAEMON = COMMAND.substring(COMMAND.lastIndexOf('/') + 1);

    @Test
    void aLiveDaemonWorkingInThePidFilesDirectoryCounts() throws Exception {
        Path pidFile = Path.of("").toAbsolutePath().resolve("daemon-pid-test.pid");
        Files.writeString(pidFile, SELF + "\n");
        try {
            assertThat(SgeCell.daemonPid(pidFile, DAEMON)).contains(SELF);
        } finally {
            Files.delete(pidFile);
        }
    }

    @Test
    void theSameDaemonWorkingElsewhereIsAnotherNodesAndDoesNotCount(@TempDir Path spool) throws Exception {
        Path pidFile = spool.resolve("execd.pid");
        Files.writeString(pidFile, SELF + "\n");

        assertThat(SgeCell.daemonPid(pidFile, DAEMON)).isEmpty();
    }
}
