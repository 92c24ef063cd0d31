package koala.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RuntimeGuessTest {
    private static final Duration DEFAULT = Duration.ofMinutes(45);

    private static RunHistory ran(int... minutes) {
        RunHistory h = RunHistory.empty();
        for (int m : minutes) {
            h = h.with("ann", "sim", Duration.ofMinutes(m), new RuntimeGuess.Prediction(DEFAULT, RuntimeGuess.Basis.SITE_DEFAULT));
        }
        return h;
    }

    /** Runs of 10, 30 and 50 min: the last two count, 40 min; a 35 min wall time caps it. */
    @Test
    void theMeanOfTheLastTwoRunsCappedAtTheWallTime() {
        RuntimeGuess guess = RuntimeGuess.exact(ran(10, 30, 50), DEFAULT);

        assertEquals(new RuntimeGuess.Prediction(Duration.ofMinutes(40), RuntimeGuess.Basis.HISTORY), guess.predict("ann", "sim", null));
        assertEquals(new RuntimeGuess.Prediction(Duration.ofMinutes(35), RuntimeGuess.Basis.HISTORY),
                guess.predict("ann", "sim", Duration.ofMinutes(35)));
    }

    /** No history of bob's job: his 2 h wall time; without one either, the site-wide default. */
    @Test
    void elseTheWallTimeElseTheSiteDefault() {
        RuntimeGuess guess = RuntimeGuess.exact(ran(10), DEFAULT);

        assertEquals(new RuntimeGuess.Prediction(Duration.ofHours(2), RuntimeGuess.Basis.WALL_TIME),
                guess.predict("bob", "sim", Duration.ofHours(2)));
        assertEquals(new RuntimeGuess.Prediction(DEFAULT, RuntimeGuess.Basis.SITE_DEFAULT), guess.predict("bob", "sim", null));
    }

    /**
     * A job predicted at 30 min has run 60 min: it has outrun its prediction, so it is taken to run to its 2 h wall
     * time; without one, twice what it has run.
     */
    @Test
    void workThatOutranItsPredictionRunsToItsWallTime() {
        RuntimeGuess guess = RuntimeGuess.exact(ran(30), DEFAULT);
        RuntimeGuess.Prediction p = guess.predict("ann", "sim", null);

        assertEquals(Duration.ofHours(2).toMillis(), guess.likely(p, Duration.ofHours(2), Duration.ofMinutes(60).toMillis()));
        assertEquals(Duration.ofHours(2).toMillis(), guess.likely(p, null, Duration.ofMinutes(60).toMillis()));
    }

    /** Default wall-time ratios (0.05 .. 1.0): the median is 0.4, so a 100 min wall time is likely 40 min. */
    @Test
    void aWallTimeIsLikelyAnOverestimate() {
        RuntimeGuess guess = RuntimeGuess.of(RunHistory.empty(), DEFAULT);
        RuntimeGuess.Prediction p = guess.predict("bob", "x", Duration.ofMinutes(100));

        assertEquals(Duration.ofMinutes(40).toMillis(), guess.likely(p, Duration.ofMinutes(100), 0));
    }
}
