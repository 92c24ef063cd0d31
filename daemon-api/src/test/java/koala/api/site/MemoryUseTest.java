package koala.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import koala.common.json.Json;
import org.junit.jupiter.api.Test;

class MemoryUseTest {
    @Test
    void saysInAUsersWordsWhatAJobUsedOfItsClaim() {
        assertThat(new MemoryUse(4096L, 8294L, true).describe()).isEqualTo("exceeded its 4G memory (max 8.1G)");
        assertThat(new MemoryUse(1024L, 779L, false).describe()).isEqualTo("779M of its 1G memory");
        assertThat(new MemoryUse(null, 4L, false).describe()).isEqualTo("4M used, no memory claimed");
        assertThat(MemoryUse.size(1536)).isEqualTo("1.5G");
        assertThat(MemoryUse.size(65536)).isEqualTo("64G");
    }

    @Test
    void aPilotStatusCarriesItAsData() throws Exception {
        PilotStatus ended = new PilotStatus("7", "fs0", "koala-x", PilotState.FAILED, null,
                "exceeded its 1G memory (max 1.08G): stopped by SGE", Instant.EPOCH, Instant.EPOCH,
                new MemoryUse(1024L, 1108L, true));

        String json = Json.mapper().writeValueAsString(ended);
        PilotStatus read = Json.mapper().readValue(json, PilotStatus.class);

        assertThat(json).contains("\"memory\":{\"claimMib\":1024,\"maxMib\":1108,\"exceeded\":true}");
        assertThat(read).isEqualTo(ended);
        assertThat(read.exceededMemory()).isTrue();
        assertThat(new PilotStatus("8", "fs0", "koala-y", PilotState.DONE, 0, null, null, null).memory()).isNull();
    }
}
