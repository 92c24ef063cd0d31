package koala.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's token goes to its pilot in a new 0600 file, in a directory only the agent's account writes. */
class SecretFilesTest {
    @TempDir
    Path dir;

    @Test
    void theTokenIsANewFileOnlyItsOwnerReads() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path file = dir.resolve("koala-ab12cd-7-0-0-a1.token");
        SecretFiles.write(file, "0f3a9c");
        assertThat(Files.readString(file)).isEqualTo("0f3a9c");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThatThrownBy(() -> SecretFiles.write(file, "other")).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void aSymlinkPlantedAtItsNameIsNeverFollowed() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path target = dir.resolve("victim");
        Files.writeString(target, "untouched");
        Path link = Files.createSymbolicLink(dir.resolve("koala-ab12cd-7-0-0-a1.token"), target);
        assertThatThrownBy(() -> SecretFiles.write(link, "0f3a9c")).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(target)).isEqualTo("untouched");
    }

    @Test
    void aDirectoryOthersMayWriteIsRefused() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> SecretFiles.write(dir.resolve("t.token"), "0f3a9c"))
                .hasMessageContaining("is writable by others (mode rwxrwxrwx)");
    }
}
