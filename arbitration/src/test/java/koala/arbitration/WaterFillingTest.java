package koala.arbitration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WaterFillingTest {

    @Test
    void theIssuesExampleTwentyNodesDemands12And8And6Weights1And1And2() {
        // at level 3 c is full (2 × 3 = 6): 3 + 3 + 6 = 12; a and b then rise 2 nodes a unit of level and
        // reach 20 at level 3 + (20 − 12) / 2 = 7: shares 7, 7, 6
        WaterFilling.Result r = WaterFilling.fill(20, List.of(new WaterFilling.Claim("a", 12, 1, 0),
                new WaterFilling.Claim("b", 8, 1, 0), new WaterFilling.Claim("c", 6, 2, 0)));
        assertThat(r.shares()).containsExactly(entry("a", 7), entry("b", 7), entry("c", 6));
        assertThat(r.level()).isEqualTo(7);
    }

    @Test
    void whatOneDoesNotDemandFlowsToTheOthersByWeight() {
        // 30 nodes; c demands only 4: a and b (weights 1 and 3) share the other 26 as 6.5 and 19.5 — then
        // rounded down to 6 and 19 with one node left, which goes to the larger weight on the equal fraction
        WaterFilling.Result r = WaterFilling.fill(30, List.of(new WaterFilling.Claim("a", 40, 1, 0),
                new WaterFilling.Claim("b", 40, 3, 0), new WaterFilling.Claim("c", 4, 2, 0)));
        assertThat(r.shares()).containsExactly(entry("a", 6), entry("b", 20), entry("c", 4));
        assertThat(r.level()).isEqualTo(6.5);
    }

    @Test
    void aFloorIsGivenFirstAndNeverMoreThanTheDemand() {
        // 20 nodes, a with floor 10: without it 7, 7, 6; with it a gets 10 and b and c share 10 as
        // level 10/3: b 3.33, c 6 (its demand) → b 4, c 6
        WaterFilling.Result r = WaterFilling.fill(20, List.of(new WaterFilling.Claim("a", 12, 1, 10),
                new WaterFilling.Claim("b", 8, 1, 0), new WaterFilling.Claim("c", 6, 2, 0)));
        assertThat(r.shares()).containsExactly(entry("a", 10), entry("b", 4), entry("c", 6));
        // a floor above the demand is the demand: a demands 3 of a floor of 10
        assertThat(WaterFilling.fill(10, List.of(new WaterFilling.Claim("a", 3, 1, 10),
                new WaterFilling.Claim("b", 20, 1, 0))).shares()).containsExactly(entry("a", 3), entry("b", 7));
    }

    @Test
    void wholeNodesGoToTheLargestFractionsThenTheLargerWeightThenById() {
        // 10 nodes, three equal claims of 10: 3.33 each; the one node left goes to a (ties by id)
        assertThat(WaterFilling.fill(10, List.of(new WaterFilling.Claim("b", 10, 1, 0),
                new WaterFilling.Claim("a", 10, 1, 0), new WaterFilling.Claim("c", 10, 1, 0))).shares())
                .containsExactly(entry("b", 3), entry("a", 4), entry("c", 3));
        // ids compare as numbers inside: i2 before i10
        assertThat(WaterFilling.fill(5, List.of(new WaterFilling.Claim("i10", 9, 1, 0),
                new WaterFilling.Claim("i2", 9, 1, 0))).shares()).containsExactly(entry("i10", 2), entry("i2", 3));
    }

    @Test
    void everyDemandMetWhenTheyFitAndFloorsAloneWhenTheyDoNot() {
        assertThat(WaterFilling.fill(20, List.of(new WaterFilling.Claim("a", 5, 1, 0),
                new WaterFilling.Claim("b", 8, 1, 0))).shares()).containsExactly(entry("a", 5), entry("b", 8));
        // floors 6 + 6 > 10: the heavier first, then by id
        assertThat(WaterFilling.fill(10, List.of(new WaterFilling.Claim("a", 9, 1, 6),
                new WaterFilling.Claim("b", 9, 2, 6))).shares()).containsExactly(entry("a", 4), entry("b", 6));
    }

    private static java.util.Map.Entry<String, Integer> entry(String id, int nodes) {
        return java.util.Map.entry(id, nodes);
    }
}
