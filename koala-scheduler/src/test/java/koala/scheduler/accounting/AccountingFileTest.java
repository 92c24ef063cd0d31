package koala.scheduler.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccountingFileTest {
    @TempDir
    Path dir;

    @Test
    void findsTheRecordsOfTheIdsAskedForWhereverTheIdIsWritten() throws Exception {
        AccountingFile file = new AccountingFile(dir.resolve("accounting.jsonl"));
        file.append(List.of(
                "{\"id\":1,\"kind\":\"job\",\"name\":\"a\"}",
                "{\"id\":12}",
                "{\"kind\":\"instance\",\"id\":7,\"name\":\"edited by hand\"}",
                "# rotated on Monday",
                "{\"id\":30x,\"kind\":\"job\"}"));
        Files.writeString(file.path(), "{\"id\":9,\"kind\":\"job\"", java.nio.file.StandardOpenOption.APPEND);

        // 9 is a write cut short, 30x no record; 2 was never written
        assertThat(file.recorded(Set.of(1L, 2L, 7L, 9L, 12L, 30L))).containsExactlyInAnyOrder(1L, 7L, 12L);
    }

    @Test
    void readsAnIdFromTheLinesStartAndParsesAnyOtherLine() {
        assertThat(AccountingFile.idOf("{\"id\":4096,\"kind\":\"job\"}")).isEqualTo(4096);
        assertThat(AccountingFile.idOf("{\"kind\":\"job\",\"id\":5}")).isEqualTo(5);
        assertThat(AccountingFile.idOf("{\"id\":\"6\"}")).isEqualTo(6);
        assertThat(AccountingFile.idOf("a note")).isEqualTo(-1);
    }
}
