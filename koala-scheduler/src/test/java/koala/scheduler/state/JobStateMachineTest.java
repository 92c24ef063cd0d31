package koala.scheduler.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JobStateMachineTest {
    @Test
    void aJobWhoseClaimsFailGoesBackToTheQueueReleasingWhatItHeld() {
        assertThat(JobStateMachine.on(JobState.CLAIMING, JobEvent.CLAIMS_FAILED)).hasValueSatisfying(t -> {
            assertThat(t.to()).isEqualTo(JobState.QUEUED);
            assertThat(t.effects()).containsExactly(SideEffect.RELEASE_NODES, SideEffect.REQUEUE);
        });
    }

    @Test
    void aCoAllocatedJobStartsOnlyFromClaimingWhenAllIsClaimed() {
        assertThat(JobStateMachine.on(JobState.CLAIMING, JobEvent.ALL_CLAIMED).orElseThrow().effects())
                .containsExactly(SideEffect.START_COMPONENTS);
        assertThat(JobStateMachine.on(JobState.QUEUED, JobEvent.ALL_CLAIMED)).isEmpty();
    }

    @Test
    void endedJobsAcceptNothingNotEvenACancel() {
        for (JobState ended : new JobState[] {JobState.FINISHED, JobState.FAILED, JobState.CANCELLED}) {
            for (JobEvent event : JobEvent.values()) {
                assertThat(JobStateMachine.on(ended, event)).as(ended + " on " + event).isEmpty();
            }
        }
    }

    @Test
    void everyLiveStateCanBeCancelledAndReleasesItsNodes() {
        for (JobState live : new JobState[] {JobState.QUEUED, JobState.CLAIMING, JobState.RUNNING}) {
            assertThat(JobStateMachine.on(live, JobEvent.CANCEL).orElseThrow().effects())
                    .containsExactly(SideEffect.RELEASE_NODES, SideEffect.RECORD_USAGE);
        }
    }

    /** Each way into an ended state makes the job's usage record, after its nodes are given back; no other does. */
    @Test
    void everyEndRecordsTheJobsUsageLastAndNothingElseDoes() {
        for (JobState from : JobState.values()) {
            for (JobEvent event : JobEvent.values()) {
                JobStateMachine.on(from, event).ifPresent(t -> {
                    if (t.to().ended()) {
                        assertThat(t.effects()).as(from + " on " + event).endsWith(SideEffect.RECORD_USAGE);
                    } else {
                        assertThat(t.effects()).as(from + " on " + event).doesNotContain(SideEffect.RECORD_USAGE);
                    }
                });
            }
        }
    }

    /** A note (GREW, TAKEN_BACK, ...) is history only: no state accepts it as a move; every moving event is accepted somewhere. */
    @Test
    void notesMoveNoJobAndEveryOtherEventMovesOne() {
        for (JobEvent event : JobEvent.values()) {
            long accepted = java.util.Arrays.stream(JobState.values())
                    .filter(s -> JobStateMachine.on(s, event).isPresent()).count();
            if (event.moves()) {
                assertThat(accepted).as(event + " moves a job from some state").isPositive();
            } else {
                assertThat(accepted).as(event + " is a note").isZero();
            }
        }
    }
}
