package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's {@code ~/.koala}, made by whichever command needs it first, is the user's alone (0700), as the README says. */
class PrivateHomeTest {
    @TempDir
    Path home;

    @Test
    void theAgentsSecretMakesTheHomeItsUsersAlone() throws Exception {
        Path koala = home.resolve(".koala");

        AgentCommand.secret(koala.resolve("agent-fs0.secret"));

        assertThat(mode(koala)).isEqualTo("rwx------");
        assertThat(mode(koala.resolve("agent-fs0.secret"))).isEqualTo("rw-------");
    }

    @Test
    void theRunnersDirectoryMakesTheHomeItsUsersAloneToo() throws Exception {
        Path koala = home.resolve(".koala");

        RunnerLaunch.makeDir(koala.resolve("runners"));

        assertThat(mode(koala)).isEqualTo("rwx------");
        assertThat(mode(koala.resolve("runners"))).isEqualTo("rwx------");
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
