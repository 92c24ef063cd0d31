package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import koala.fluent.Assignment;
import koala.fluent.Resumed;
import org.junit.jupiter.api.Test;

/** Which components of a word count move where, from the state's decision, worked out by slot. */
class MovePlanTest {
    /** n = 2: slot 0 the counter, 1..4 mappers 0..3, 5 the reader; placed w1 (2), w2 (2), w3 (2). */
    private static final Layout PLACED = Layout.of(List.of(new Assignment("w1", 2), new Assignment("w2", 2),
            new Assignment("w3", 2)));

    @Test
    void theComponentsOfAWorkerLeftGoInSlotOrderToTheSlotsTakenElsewhereTheOthersStay() {
        assertThat(PLACED.workers()).containsExactly("w1", "w1", "w2", "w2", "w3", "w3");
        // w1 and w3 took their slots back; w2 (mappers 1 and 2) could not: they go to w4 (1) and w5 (1)
        Resumed resumed = new Resumed("a.swc1", List.of(new Assignment("w1", 2), new Assignment("w3", 2),
                new Assignment("w4", 1), new Assignment("w5", 1)), List.of("w2"), Duration.ofSeconds(40), "why");

        MovePlan plan = MovePlan.of("a.swc1", PLACED, resumed);

        assertThat(plan.after().workers()).containsExactly("w1", "w1", "w4", "w5", "w3", "w3");
        assertThat(plan.steps()).containsExactly(new MovePlan.Step(2, "w2", "w4"), new MovePlan.Step(3, "w2", "w5"));
        assertThat(plan.sources()).containsExactly("w2");
        assertThat(plan.describe()).isEqualTo("mapper 1 w2 → w4, mapper 2 w2 → w5");
        assertThat(plan.after().counter()).isEqualTo("w1");
        assertThat(plan.after().mapperWorkers()).containsExactly("w1", "w4", "w5", "w3");
        assertThat(plan.after().reader()).isEqualTo("w3");
    }

    @Test
    void aYieldNamesOnlyTheSlotsTakenElsewhere() {
        // w3 taken back: mapper 3 and the reader go to w6 (2); w1 and w2 are not in the decision
        Resumed yielded = new Resumed("a.swc1", List.of(new Assignment("w6", 2)), List.of("w3"), Duration.ZERO, "why");
        MovePlan plan = MovePlan.of("a.swc1", PLACED, yielded);
        assertThat(plan.after().workers()).containsExactly("w1", "w1", "w2", "w2", "w6", "w6");
        assertThat(plan.describe()).isEqualTo("mapper 3 w3 → w6, reader w3 → w6");
    }

    @Test
    void slotsThatDoNotMatchTheComponentsLeavingAreAMistakeNotAGuess() {
        Resumed wrong = new Resumed("a.swc1", List.of(new Assignment("w6", 3)), List.of("w3"), Duration.ZERO, "why");
        assertThatThrownBy(() -> MovePlan.of("a.swc1", PLACED, wrong)).isInstanceOf(IllegalStateException.class)
                .hasMessage("a.swc1: 3 slots taken [w6 (3)] for 2 components on [w3]");
    }
}
