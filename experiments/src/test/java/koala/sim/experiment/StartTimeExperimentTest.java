package koala.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class StartTimeExperimentTest {
    /**
     * Of 20 errors the 6th and 15th smallest bound the median with 95.9% confidence: fewer than 6 of 20 fall below
     * the median with probability 2.07% (Binomial(20, 1/2)), fewer than 7 with 5.77%. Of 6 errors the smallest and
     * largest do (96.9%); 5 errors are too few for any interval (the smallest lies above the median 3.1% of the time).
     */
    @Test
    void theMedianErrorsConfidenceIntervalFromOrderStatistics() {
        assertArrayEquals(new int[] {5, 14}, StartTimeExperiment.medianInterval(20));
        assertArrayEquals(new int[] {0, 5}, StartTimeExperiment.medianInterval(6));
        assertArrayEquals(new int[] {16, 30}, StartTimeExperiment.medianInterval(47));
        assertNull(StartTimeExperiment.medianInterval(5));
    }
}
