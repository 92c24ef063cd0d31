package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A master takes over only its own instance's journal, not another's under the same id. */
class InstanceDirTest {
    private static final Instant T = Instant.parse("2026-11-26T04:30:00Z");

    @TempDir
    Path home;

    @Test
    void theSameInstanceKeepsItsDirectoryAndAnotherUnderTheSameIdStartsAfresh() throws Exception {
        Path dir = home.resolve("instance-1");
        assertThat(InstanceDir.claim(dir, "device-a", "token-a", T)).isEmpty();
        Files.writeString(dir.resolve("journal"), "a's jobs\n");

        // instance 1's master restarted after its token was replaced: same device token, same journal
        assertThat(InstanceDir.claim(dir, "device-a", "token-a2", T.plusSeconds(60))).isEmpty();
        assertThat(dir.resolve("journal")).hasContent("a's jobs");

        // a scheduler on a new database numbers its instances from 1 again
        assertThat(InstanceDir.claim(dir, "device-b", "token-b", T.plusSeconds(120)))
                .contains(home.resolve("instance-1.replaced-20261126-043200"));
        assertThat(dir.resolve("journal")).doesNotExist();
        assertThat(home.resolve("instance-1.replaced-20261126-043200").resolve("journal")).hasContent("a's jobs");
        assertThat(Files.readString(dir.resolve(InstanceDir.MARK))).doesNotContain("token");
    }

    @Test
    void aDirectoryMarkedWithTheTokenByAnEarlierMasterIsTheInstancesAndMarkedAnew() throws Exception {
        Path dir = home.resolve("instance-2");
        assertThat(InstanceDir.claim(dir, "token-a", null, T)).isEmpty(); // an earlier master marked with its token
        Files.writeString(dir.resolve("journal"), "a's jobs\n");

        assertThat(InstanceDir.claim(dir, "device-a", "token-a", T.plusSeconds(60))).isEmpty();
        // marked anew with the device token: the token may be replaced from now on
        assertThat(InstanceDir.claim(dir, "device-a", "token-a2", T.plusSeconds(120))).isEmpty();
        assertThat(dir.resolve("journal")).hasContent("a's jobs");
    }

    @Test
    void anUnmarkedDirectoryFromBeforeIsMovedAside() throws Exception {
        Path dir = Files.createDirectories(home.resolve("instance-3"));
        Files.writeString(dir.resolve("journal"), "old\n");
        assertThat(InstanceDir.claim(dir, "device-c", "token-c", T)).contains(home.resolve("instance-3.replaced-20261126-043000"));
        assertThat(dir.resolve("journal")).doesNotExist();
    }
}
