package koala.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import koala.common.failure.Conflict;
import koala.common.failure.Failure;
import koala.common.failure.Forbidden;
import koala.common.failure.Gone;
import koala.common.failure.InvalidField;
import koala.common.failure.NotFound;
import koala.common.failure.OverLimit;
import koala.common.failure.Refused;
import koala.common.failure.Unauthenticated;
import koala.common.failure.Unavailable;
import org.junit.jupiter.api.Test;

class FailureStatusTest {

    /** What one process's domain threw reaches the other's domain as the same kind, message and field. */
    @Test
    void aFailureSentAsAStatusIsReadBackAsTheSameFailure() {
        List<Failure> sent = List.of(new InvalidField("nodes", "0: ask for at least 1 node"),
                new Unauthenticated("missing token", "Authorization"), new Forbidden("job 7 is bob's"),
                new NotFound("job 7"), new Conflict("instance is ENDED; it can be resized while RUNNING"),
                new Gone("node 4.2.0 is not this instance's", "node"), new Refused("SGE refused the job"),
                new OverLimit("alice has 10 jobs queued"), new Unavailable("the scheduler is busy"));

        for (Failure failure : sent) {
            Failure read = FailureStatus.failureOf(ApiException.of(failure));

            assertThat(read.kind()).as(failure.getMessage()).isEqualTo(failure.kind());
            assertThat(read.getMessage()).isEqualTo(failure.getMessage());
            assertThat(read.field()).isEqualTo(failure.field());
        }
    }

    @Test
    void noAnswerInTimeOrNoServerAtAllMayWorkLaterAndAServerErrorWillNot() {
        assertThat(FailureStatus.failureOf(new ApiException(504, "no answer within 30 s"))).isInstanceOf(Unavailable.class);
        assertThat(FailureStatus.failureOf(ApiException.unreached("connection refused"))).isInstanceOf(Unavailable.class)
                .hasMessage("connection refused");
        assertThat(FailureStatus.failureOf(new ApiException(500, "NullPointerException"))).isInstanceOf(Refused.class);
    }
}
