package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher reads its node's token from the file the agent wrote, and deletes it. */
class TokenFileTest {
    @TempDir
    Path dir;

    @Test
    void theTokenIsReadOnceAndTheFileIsGone() throws Exception {
        Path file = Files.writeString(dir.resolve("koala-ab12cd-7-0-0-a1.token"), "0f3a9c\n");
        assertThat(NodeLauncher.token(Optional.of(file.toString()))).isEqualTo("0f3a9c");
        assertThat(file).doesNotExist();
        assertThat(NodeLauncher.token(Optional.empty())).isEmpty();
    }
}
