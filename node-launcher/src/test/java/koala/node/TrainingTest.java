package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TrainingTest {
    /** Arrival, a RUN task, an entity (sleep 0.2) that beats every 50 ms, its end reported: all against the stand-in. */
    @Test
    void theTrainingRunGoesThroughTheLaunchersWholePathAndEndsWell() throws Exception {
        assertThat(Training.run()).isZero();
    }
}
