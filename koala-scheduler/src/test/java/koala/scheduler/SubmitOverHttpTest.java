package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's promises as a client sees them, over its Unix socket and the real API: each test's
 * scheduler runs a grid of one site, fs0 with 3 nodes, and serves it as the daemon does (its loop, token
 * key, admins and audit log in the test's directory); {@link #alice} is a user with an account on it.
 */
class SubmitOverHttpTest {
    @TempDir
    Path dir;

    private ServedScheduler scheduler;
    /** A client of the scheduler's socket acting for alice (uid 1002 in the test's passwd). */
    private SchedulerClient alice;

    @BeforeEach
    void serve() throws IOException {
        scheduler = ServedScheduler.serve(dir);
        alice = scheduler.asRoot().actingFor("alice");
    }

    @AfterEach
    void stop() {
        if (scheduler != null) {
            scheduler.close();
        }
    }

    /** A submit whose answer was lost is sent again under the same request id: one job, not two. */
    @Test
    void aSubmitRetriedUnderTheSameRequestIdFindsTheFirstJob() {
        String jdf = "&(count = 2)(executable = \"/bin/true\")";

        JobView first = alice.submit(new SubmitRequest("two.jdf", jdf, "r-1"));
        JobView again = alice.submit(new SubmitRequest("two.jdf", jdf, "r-1"));
        JobView other = alice.submit(new SubmitRequest("two.jdf", jdf, "r-2"));

        assertThat(again.id()).isEqualTo(first.id());
        assertThat(other.id()).isNotEqualTo(first.id());
        assertThat(alice.jobs()).extracting(JobView::id).containsExactly(first.id(), other.id());
    }

    /**
     * The same request id with another JDF is a 409 naming the id, what differs (a JDF of several lines is
     * named, not shown) and the job it made.
     */
    @Test
    void aRequestIdReusedWithAnotherJdfIsA409NamingTheConflict() {
        JobView first = alice.submit(new SubmitRequest("two.jdf", "&(count = 2)\n (executable = \"/bin/true\")", "r-1"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> alice.submit(new SubmitRequest("two.jdf",
                        "&(count = 3)\n (executable = \"/bin/true\")", "r-1")))
                .isInstanceOfSatisfying(koala.http.ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.field()).isEqualTo("requestId");
                    assertThat(e.getMessage()).contains("request id 'r-1' was used for the submit of job " + first.id()
                            + ", with another jdf");
                });
        assertThat(alice.jobs()).extracting(JobView::id).containsExactly(first.id());
    }

    /**
     * A runner's allocation whose role carries a malformed constraint is refused with a 400 naming the
     * field and what is wrong; the scheduler carries on, and a well-formed one is opened and kept.
     */
    @Test
    void anAllocationWithAMalformedConstraintIsA400NamingTheField() {
        koala.api.scheduler.RolePlacement bad = new koala.api.scheduler.RolePlacement("worker", 2, List.of(),
                List.of("cardinality 3..1 role=worker host"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> alice.allocate(
                new koala.api.scheduler.AllocationRequest("runner", null, List.of(bad))))
                .isInstanceOfSatisfying(koala.http.ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.field()).isEqualTo("roles[0].constraints[0]");
                })
                .hasMessageContaining("'cardinality 3..1 role=worker host': cardinality: '3..1': MAX is below MIN");
        JobView opened = alice.allocate(new koala.api.scheduler.AllocationRequest("runner", null, List.of(
                new koala.api.scheduler.RolePlacement("worker", 2, List.of(), List.of("cardinality 0..2 role=worker host")))));
        assertThat(scheduler.grid.store.roles(opened.id())).isPresent();
        assertThat(alice.jobs()).extracting(JobView::id).containsExactly(opened.id());
    }
}
