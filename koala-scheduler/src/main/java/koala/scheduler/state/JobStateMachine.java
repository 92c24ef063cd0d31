package koala.scheduler.state;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A job's lifecycle as a transition table: for each state, the events it accepts, the state they
 * lead to and the side effects the scheduler carries out. An event a state does not accept is
 * refused, so that no code path can move a job where it cannot go.
 *
 * <pre>
 * QUEUED    --PLACED-----------> CLAIMING   claim nodes
 * QUEUED    --GAVE_UP_PLACING--> FAILED     record usage
 * CLAIMING  --ALL_CLAIMED------> RUNNING    start components
 * CLAIMING  --CLAIMS_FAILED----> QUEUED     release nodes, requeue
 * RUNNING   --COMPLETED--------> FINISHED   release nodes, record usage
 * RUNNING   --BROKE------------> FAILED     release nodes, record usage
 * QUEUED, CLAIMING, RUNNING --CANCEL--> CANCELLED   release nodes, record usage
 * RUNNING   --CLOSED-----------> FINISHED   release nodes, record usage (an allocation its owner gives back)
 * </pre>
 * Every transition to an ended state records the job's usage, last.
 * An allocation (a runner's job whose nodes come and go) is RUNNING from the moment it is opened.
 */
public final class JobStateMachine {
    /** Where an event leads, and what must be done. */
    public record Transition(JobState from, JobEvent event, JobState to, List<SideEffect> effects) {
    }

    private static final Map<JobState, Map<JobEvent, Transition>> TABLE = new EnumMap<>(JobState.class);

    static {
        allow(JobState.QUEUED, JobEvent.PLACED, JobState.CLAIMING, SideEffect.CLAIM_NODES);
        allow(JobState.QUEUED, JobEvent.GAVE_UP_PLACING, JobState.FAILED, SideEffect.RECORD_USAGE);
        allow(JobState.CLAIMING, JobEvent.ALL_CLAIMED, JobState.RUNNING, SideEffect.START_COMPONENTS);
        allow(JobState.CLAIMING, JobEvent.CLAIMS_FAILED, JobState.QUEUED, SideEffect.RELEASE_NODES, SideEffect.REQUEUE);
        allow(JobState.RUNNING, JobEvent.COMPLETED, JobState.FINISHED, SideEffect.RELEASE_NODES, SideEffect.RECORD_USAGE);
        allow(JobState.RUNNING, JobEvent.BROKE, JobState.FAILED, SideEffect.RELEASE_NODES, SideEffect.RECORD_USAGE);
        allow(JobState.RUNNING, JobEvent.CLOSED, JobState.FINISHED, SideEffect.RELEASE_NODES, SideEffect.RECORD_USAGE);
        for (JobState live : List.of(JobState.QUEUED, JobState.CLAIMING, JobState.RUNNING)) {
            allow(live, JobEvent.CANCEL, JobState.CANCELLED, SideEffect.RELEASE_NODES, SideEffect.RECORD_USAGE);
        }
    }

    private JobStateMachine() {
    }

    private static void allow(JobState from, JobEvent event, JobState to, SideEffect... effects) {
        if (!event.moves()) {
            throw new IllegalStateException(event + " is a note of a job's history, not a move");
        }
        TABLE.computeIfAbsent(from, s -> new EnumMap<>(JobEvent.class))
                .put(event, new Transition(from, event, to, List.of(effects)));
    }

    /** The transition {@code event} causes in {@code state}, or empty if the state refuses it. */
    public static Optional<Transition> on(JobState state, JobEvent event) {
        return Optional.ofNullable(TABLE.getOrDefault(state, Map.of()).get(event));
    }
}
