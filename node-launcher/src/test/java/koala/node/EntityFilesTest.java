package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A private directory (an entity's, an MPI run's), and the entity's token and runner files in one. */
class EntityFilesTest {
    @TempDir
    Path tmp;

    /**
     * In a shared directory someone made the first name a directory of theirs and the second a link to
     * somewhere else: neither is used; the third name becomes the private directory, only its user's.
     */
    @Test
    void aNameSomeoneElseTookIsNeverUsed() throws Exception {
        long pid = ProcessHandle.current().pid();
        Path theirs = Files.createDirectory(tmp.resolve("koala-entity-" + pid + "-a"));
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(tmp.resolve("koala-entity-" + pid + "-b"), elsewhere);
        Iterator<Long> names = List.of(0xaL, 0xbL, 0xcL).iterator();

        Path dir = PrivateDirectory.make(tmp, "koala-entity-", names::next);

        assertThat(dir).isEqualTo(tmp.resolve("koala-entity-" + pid + "-c"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(theirs).isEmptyDirectory();
        assertThat(elsewhere).isEmptyDirectory();
    }

    @Test
    void theTokenAndTheRunnersAddressAreTheUsersAloneAndReplacedWhole() throws Exception {
        try (EntityFiles files = EntityFiles.of("t1", "http://198.18.0.1:7001")) {
            assertThat(Files.readString(files.path())).isEqualTo("t1\n");
            assertThat(Files.readString(files.runnerPath())).isEqualTo("http://198.18.0.1:7001\n");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.path()))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.path().getParent())))
                    .isEqualTo("rwx------");

            files.updateToken("t2");
            files.runnerMoved("http://198.18.0.2:7001");

            assertThat(Files.readString(files.path())).isEqualTo("t2\n");
            assertThat(Files.readString(files.runnerPath())).isEqualTo("http://198.18.0.2:7001\n");
            try (var left = Files.list(files.path().getParent())) {
                assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("token", "runner-url");
            }
            Path dir = files.path().getParent();
            files.close();
            assertThat(dir).doesNotExist();
        }
    }
}
