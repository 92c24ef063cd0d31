package koala.api.scheduler;

import java.time.Instant;

/** One recorded change of a job's state, with the event and the reason. */
public record TransitionView(Instant at, String from, String to, String event, String reason) {
}
