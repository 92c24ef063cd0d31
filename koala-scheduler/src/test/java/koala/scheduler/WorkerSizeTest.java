package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import koala.placement.Resources;
import org.junit.jupiter.api.Test;

/**
 * What a framework's worker counts for when instances share the grid: its size in the grid's nodes
 * ({@link NodeNeeds#gridNodes}), and the slots the workers ended for a grant leave for the taker's
 * ({@link Grows#slots}).
 */
class WorkerSizeTest {
    /** The resources testbed: 176 cores, 704G and 8 GPUs, so 4G a core and a GPU for every 22 cores. */
    private static final Resources GRID = new Resources(176, 704 * 1024, 8);

    @Test
    void aWorkerTakesAsManyNodesAsItsLargestShareOfTheGrid() {
        assertThat(NodeNeeds.gridNodes(Resources.NODE, GRID)).isEqualTo(1);
        assertThat(NodeNeeds.gridNodes(new Resources(1, 4 * 1024, 0), GRID)).isEqualTo(1);
        assertThat(NodeNeeds.gridNodes(new Resources(4, 0, 0), GRID)).isEqualTo(4);
        assertThat(NodeNeeds.gridNodes(new Resources(1, 16 * 1024, 0), GRID)).isEqualTo(4);
        assertThat(NodeNeeds.gridNodes(new Resources(1, 4 * 1024 + 1, 0), GRID)).isEqualTo(2);
        assertThat(NodeNeeds.gridNodes(new Resources(2, 0, 1), GRID)).isEqualTo(22);
        // a grid whose memory and GPUs are not known counts cores alone
        assertThat(NodeNeeds.gridNodes(new Resources(2, 64 * 1024, 1), new Resources(16, 0, 0))).isEqualTo(2);
        assertThat(NodeNeeds.gridNodes(new Resources(2, 64 * 1024, 1), Resources.NONE)).isEqualTo(2);
    }

    @Test
    void endedWorkersLeaveSlotsForTheTakersAsTheirResourcesAddUp() {
        List<Grows.Ended> ones = List.of(one("fs0"), one("fs1"), one("fs0"), one("fs0"), one("fs0"));
        // hosts not known: a node each, in the order they end, for a taker of one core
        assertThat(Grows.slots(ones, Resources.NODE, Map.of())).containsExactly("fs0", "fs1", "fs0", "fs0", "fs0");
        // a taker of 2 cores: fs0's second and fourth ended nodes make a slot each; fs1's one node none
        assertThat(Grows.slots(ones, new Resources(2, 0, 0), Map.of())).containsExactly("fs0", "fs0");
        // GPUs are not made by nodes that had none
        assertThat(Grows.slots(ones, new Resources(1, 0, 1), Map.of())).isEmpty();
    }

    @Test
    void onAKnownHostWhatIsFreeThereCountsWithWhatTheEndedNodeHeld() {
        // fs1-n1 (8 cores, 16G) runs one worker of 1 core and 15G, so 7 cores and 1G are free: a taker of
        // 4 cores and 4G fits nowhere. Once that worker ends, the host holds 2 of them
        Map<String, Resources> free = Map.of("fs1-n1", new Resources(7, 1024, 0));
        Grows.Ended big = new Grows.Ended("fs1", "fs1-n1", new Resources(1, 15 * 1024, 0));
        assertThat(Grows.slots(List.of(big), new Resources(4, 4 * 1024, 0), free)).containsExactly("fs1", "fs1");
        // counted by its own resources alone, it would have made none: 1 core holds no node of 4
        assertThat(Grows.slots(List.of(big), new Resources(4, 4 * 1024, 0), Map.of())).isEmpty();
    }

    private static Grows.Ended one(String site) {
        return new Grows.Ended(site, null, Resources.NODE);
    }
}
