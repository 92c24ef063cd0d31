package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import koala.common.api.JobView;
import koala.common.api.SchedulerClient;
import koala.common.api.SubmitRequest;
import koala.common.auth.TokenKey;
import koala.common.auth.Tokens;
import koala.common.http.Endpoint;
import koala.common.http.JsonHttpServer;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.SchedulerApi;
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

    private TestGrid grid;
    private SchedulerLoop loop;
    private JsonHttpServer server;
    /** A client of the scheduler's socket acting for alice (uid 1002 in the test's passwd). */
    private SchedulerClient alice;

    @BeforeEach
    void serve() throws IOException {
        grid = new TestGrid(Map.of("fs0", 3), Duration.ofSeconds(60));
        loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor());
        Path socket = dir.resolve("scheduler.sock");
        server = new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-")), 4);
        TokenKey key = TokenKey.in(dir.resolve("token.key"));
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                + "alice:x:1002:1002::/home/alice:/bin/sh\n");
        Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock);
        SchedulerApi.register(server, SchedulerDaemon.operations(grid.scheduler, loop, key), callers,
                AuditLog.in(dir.resolve("audit.log"), grid.clock));
        server.start();
        alice = new SchedulerClient(URI.create("unix:" + socket)).actingFor("alice");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (loop != null) {
            loop.close();
        }
        if (grid != null) {
            grid.close();
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
                .isInstanceOfSatisfying(koala.common.http.ApiException.class, e -> {
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
        koala.common.api.RolePlacement bad = new koala.common.api.RolePlacement("worker", 2, List.of(),
                List.of("cardinality 3..1 role=worker host"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> alice.allocate(
                new koala.common.api.AllocationRequest("runner", null, List.of(bad))))
                .isInstanceOfSatisfying(koala.common.http.ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.field()).isEqualTo("roles[0].constraints[0]");
                })
                .hasMessageContaining("'cardinality 3..1 role=worker host': cardinality: '3..1': MAX is below MIN");
        JobView opened = alice.allocate(new koala.common.api.AllocationRequest("runner", null, List.of(
                new koala.common.api.RolePlacement("worker", 2, List.of(), List.of("cardinality 0..2 role=worker host")))));
        assertThat(grid.store.roles(opened.id())).isPresent();
        assertThat(alice.jobs()).extracting(JobView::id).containsExactly(opened.id());
    }
}
