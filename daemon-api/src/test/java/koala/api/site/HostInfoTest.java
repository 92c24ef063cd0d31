package koala.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import koala.api.site.HostResources.MemorySource;
import koala.common.json.Json;
import org.junit.jupiter.api.Test;

/** A host's resources go from the site agent to the scheduler in the snapshot, as JSON. */
class HostInfoTest {
    @Test
    void aSnapshotCarriesEachHostsResourcesThroughJson() throws Exception {
        HostInfo gpuHost = new HostInfo("fs0-n13", "lx-amd64", 2, 0.5, "23.5G", "2.4G",
                new HostResources(16, 15, 65536L, 63488L, MemorySource.CONSUMABLE, 2, 1));
        CellSnapshot snapshot = new CellSnapshot("fs0", Instant.parse("2026-12-05T20:29:13Z"), List.of(gpuHost),
                List.of(), List.of());
        assertThat(Json.mapper().readValue(Json.mapper().writeValueAsString(snapshot), CellSnapshot.class))
                .isEqualTo(snapshot);
    }

    @Test
    void aHostFromAnAgentThatReadsNoResourcesHasNone() throws Exception {
        String older = "{\"name\":\"n1\",\"arch\":\"lx-amd64\",\"processors\":2,\"loadAvg\":0.1,\"memTotal\":\"1.0G\","
                + "\"memUsed\":\"0.1G\"}";
        assertThat(Json.mapper().readValue(older, HostInfo.class))
                .isEqualTo(new HostInfo("n1", "lx-amd64", 2, 0.1, "1.0G", "0.1G"));
        assertThat(new HostInfo("n1", null, null, null, null, null).resources()).isNull();
        assertThat(Json.mapper().writeValueAsString(new HostInfo("n1", "lx-amd64", 2, 0.1, "1.0G", "0.1G")))
                .doesNotContain("resources");
    }

    @Test
    void gpuDevicesAreZeroToNMinusOneUnlessTheGridConfigurationSaysOtherwise() {
        assertThat(new HostResources(16, 16, null, null, MemorySource.UNKNOWN, 2, 2).defaultGpuDevices()).containsExactly(0, 1);
        assertThat(new HostResources(4, 4, null, null, MemorySource.UNKNOWN, 0, 0).defaultGpuDevices()).isEmpty();
    }
}
