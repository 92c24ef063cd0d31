package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2StoreTest {
    @TempDir
    Path dir;

    @Test
    void thePilotTagIsDrawnOnceAndKeptWithTheDatabase() {
        String tag;
        try (H2Store store = H2Store.open(dir.resolve("a"))) {
            tag = store.pilotTag();
            assertThat(tag).matches("[a-z0-9]{6}");
            assertThat(store.pilotTag()).isEqualTo(tag);
        }
        try (H2Store reopened = H2Store.open(dir.resolve("a"))) {
            assertThat(reopened.pilotTag()).as("after a restart").isEqualTo(tag);
        }
        try (H2Store other = H2Store.open(dir.resolve("b"))) {
            assertThat(other.pilotTag()).as("another scheduler's database").isNotEqualTo(tag);
        }
    }
}
