package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long the scheduler has not answered the runner. A runner whose scheduler is gone for good
 * gives up after {@code giveUp} — the time its nodes' launchers wait too — instead of trying for ever.
 */
final class SchedulerSilence {
    private final Duration giveUp;
    private Instant since;

    SchedulerSilence(Duration giveUp) {
        this.giveUp = giveUp;
    }

    /** The scheduler answered: the silence, if any, is over; what to tell when one ended. */
    Optional<String> answered(Instant now) {
        if (since == null) {
            return Optional.empty();
        }
        String text = "the scheduler answers again after " + Duration.between(since, now).toSeconds() + " s";
        since = null;
        return Optional.of(text);
    }

    /** The scheduler did not answer at {@code now}; true once it has been silent for {@code giveUp}. */
    boolean silent(Instant now) {
        if (since == null) {
            since = now;
        }
        return !now.isBefore(since.plus(giveUp));
    }

    /** Whether this failure began the silence (the first to report). */
    boolean began(Instant now) {
        return now.equals(since);
    }

    Duration giveUp() {
        return giveUp;
    }
}
