package koala.api.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.util.List;
import java.util.Map;
import koala.common.json.Json;
import org.junit.jupiter.api.Test;

/** What each node of a grow asks for on its host goes from the runner to the scheduler as JSON. */
class GrowRequestTest {
    private static final GrowRequest WORKERS = new GrowRequest(2, "worker", "/bin/sleep", List.of("infinity"),
            Map.of("A", "1"), null, "initial deployment", "r-1");

    @Test
    void aGrowCarriesEachNodesCoresMemoryAndGpusThroughJson() throws Exception {
        GrowRequest sized = WORKERS.withResources(4, 8192L, 1);
        String json = Json.write(sized);

        assertThat(json).contains("\"cores\":4,\"memoryMiB\":8192,\"gpus\":1");
        assertThat(Json.mapper().readValue(json, GrowRequest.class)).isEqualTo(sized);
    }

    @Test
    void aGrowThatAsksNothingLeavesTheFieldsOutAndReadsAsNulls() throws Exception {
        String json = Json.write(WORKERS);

        assertThat(json).doesNotContain("cores").doesNotContain("memoryMiB").doesNotContain("gpus");
        GrowRequest read = Json.mapper().readValue(json, GrowRequest.class);
        assertThat(read).isEqualTo(WORKERS);
        assertThat(new Object[] {read.cores(), read.memoryMiB(), read.gpus()}).containsOnlyNulls();
        assertThat(Json.mapper().readValue("{\"nodes\":1,\"role\":\"worker\",\"executable\":\"/bin/true\"}",
                GrowRequest.class).cores()).as("a body written before resources").isNull();
    }

    @Test
    void onlyMemoryMayBeLeftOut() throws Exception {
        GrowRequest noMemory = WORKERS.withResources(2, null, 0);
        String json = Json.write(noMemory);

        assertThat(json).contains("\"cores\":2,\"gpus\":0").doesNotContain("memoryMiB");
        assertThat(Json.mapper().readValue(json, GrowRequest.class)).isEqualTo(noMemory);
    }

    @Test
    void theCopiesKeepTheResources() {
        GrowRequest sized = WORKERS.withResources(4, 8192L, 0);

        for (GrowRequest copy : List.of(sized.withNodes(5), sized.withRequestId("r-2"), sized.named("r-3"),
                sized.withOutput("/tmp/out", null))) {
            assertThat(new Object[] {copy.cores(), copy.memoryMiB(), copy.gpus()}).containsExactly(4, 8192L, 0);
        }
        assertThat(sized.withNodes(5).nodes()).isEqualTo(5);
        assertThat(sized.withResources(null, null, null)).isEqualTo(WORKERS);
    }

    @Test
    void aNodeOfNoCoresOrNoMemoryOrNegativeGpusIsRefused() {
        assertThatThrownBy(() -> WORKERS.withResources(0, null, null))
                .hasMessage("cores per node must be 1 or more, not 0");
        assertThatThrownBy(() -> WORKERS.withResources(null, 0L, null))
                .hasMessage("memoryMiB per node must be 1 or more, not 0");
        assertThatThrownBy(() -> WORKERS.withResources(null, null, -1))
                .hasMessage("gpus per node must be 0 or more, not -1");
        assertThatThrownBy(() -> Json.mapper().readValue(
                "{\"nodes\":1,\"role\":\"worker\",\"executable\":\"/bin/true\",\"cores\":-2}", GrowRequest.class))
                .isInstanceOf(ValueInstantiationException.class)
                .hasMessageContaining("cores per node must be 1 or more, not -2");
    }
}
