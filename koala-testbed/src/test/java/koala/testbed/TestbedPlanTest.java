package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestbedPlanTest {
    @Test
    void defaultIsThreeCellsLikeDas4WithTheFirstTheLargest() {
        assertThat(TestbedPlan.of(null, List.of()).cells()).containsExactly(
                new CellPlan("fs0", 16, 6460, 6461),
                new CellPlan("fs1", 8, 6462, 6463),
                new CellPlan("fs2", 8, 6464, 6465));
    }

    @Test
    void slotsAloneDecideTheNumberOfCells() {
        assertThat(TestbedPlan.of(null, List.of(4, 2)).cells()).containsExactly(
                new CellPlan("fs0", 4, 6460, 6461), new CellPlan("fs1", 2, 6462, 6463));
        assertThat(TestbedPlan.of(5, List.of()).cells()).extracting(CellPlan::slots).containsExactly(16, 8, 8, 8, 8);
    }

    @Test
    void inconsistentOrOutOfRangeRequestsAreRefusedWithTheOption() {
        assertThatThrownBy(() -> TestbedPlan.of(2, List.of(8, 8, 8))).hasMessage("--slots gives 3 sizes for 2 clusters");
        assertThatThrownBy(() -> TestbedPlan.of(0, List.of())).hasMessage("--clusters 0: choose 1..16");
        assertThatThrownBy(() -> TestbedPlan.of(null, List.of(8, 0))).hasMessage("--slots 0 for fs1: choose 1..1024");
    }

    @Test
    void queueIsNamedAfterTheCell() {
        assertThat(new CellPlan("fs1", 8, 6462, 6463).queue()).isEqualTo("fs1.q");
    }
}
