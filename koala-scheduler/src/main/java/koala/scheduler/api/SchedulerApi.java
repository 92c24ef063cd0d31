package koala.scheduler.api;

import java.util.Optional;
import java.util.function.Function;
import koala.common.api.AllocationFailure;
import koala.common.api.AllocationRequest;
import koala.common.api.FrameworkRegistration;
import koala.common.api.GrowRequest;
import koala.common.api.MasterAddress;
import koala.common.api.NodeReport;
import koala.common.api.ReleaseRequest;
import koala.common.api.NodeTask;
import koala.common.api.SubmitRequest;
import koala.common.http.ApiException;
import koala.common.http.JsonHttpServer;
import koala.common.http.Request;
import koala.common.http.Response;
import koala.common.jdf.JdfException;

/**
 * The scheduler's HTTP/JSON API.
 *
 * <pre>
 * POST   /jobs                 submit {file, jdf}; 201 with the job, 400 listing every JDF error
 * GET    /jobs                 every job
 * GET    /jobs/{id}            one job: state, why it waits, nodes, history
 * DELETE /jobs/{id}            cancel
 * POST   /allocations          a runner opens an allocation {owner}; 201
 * POST   /allocations/{id}/grow     {nodes, role, executable, arguments, environment, site}: granted nodes
 * POST   /allocations/{id}/release  {nodes: [ids]}: give nodes back; 409 if one is not the allocation's
 * GET    /allocations/{id}     the allocation and its nodes (as a job)
 * DELETE /allocations/{id}     close it: every node given back
 * POST   /allocations/{id}/fail     {reason}: end it as FAILED (its instance failed): every node given back
 * POST   /frameworks          register a framework instance on its allocation (FrameworkJobManager)
 * POST   /frameworks/{id}/master  {node, address}: where clients reach the instance's master
 * GET    /frameworks          every instance; GET /frameworks/{id} one
 * GET    /sites                every site: nodes total, idle, KOALA's, others', claiming, agent health
 * POST   /nodes/{id}/arrive    a node launcher arrived {token, host}; answers its task
 * GET    /nodes/{id}/task      ?token=..&amp;waitMs=N: long-poll for the node's task (WAIT, RUN, EXIT)
 * POST   /nodes/{id}/exit      the node's command ended {token, exitStatus}
 * </pre>
 */
public final class SchedulerApi {
    /** The operations the API exposes, each run on the scheduler's loop. */
    public interface Operations {
        Object submit(SubmitRequest request);

        Object job(long id);

        Object jobs();

        Object cancel(long id);

        Object sites();

        Object allocate(AllocationRequest request);

        Object grow(long id, GrowRequest request);

        Object release(long id, ReleaseRequest request);

        Object close(long id);

        Object fail(long id, String reason);

        Object register(FrameworkRegistration registration);

        Object master(long id, MasterAddress master);

        Object framework(long id);

        Object frameworks();

        NodeTask arrive(String node, NodeReport report);

        NodeTask task(String node, String token);

        NodeTask exited(String node, NodeReport report);

        void awaitChange(long millis) throws InterruptedException;
    }

    private SchedulerApi() {
    }

    /** Every route: for this machine's users and KOALA's own processes. */
    public static void register(JsonHttpServer server, Operations ops) {
        registerUsers(server, ops);
        registerNodes(server, ops);
    }

    private static void registerUsers(JsonHttpServer server, Operations ops) {
        server.route("POST", "/jobs", r -> Response.created(submit(ops, r)))
                .route("GET", "/jobs", r -> Response.ok(ops.jobs()))
                .route("GET", "/jobs/{id}", r -> Response.ok(ops.job(id(r))))
                .route("DELETE", "/jobs/{id}", r -> Response.ok(ops.cancel(id(r))))
                .route("GET", "/sites", r -> Response.ok(ops.sites()))
                .route("POST", "/allocations", r -> Response.created(ops.allocate(r.body(AllocationRequest.class))))
                .route("POST", "/allocations/{id}/grow", r -> Response.ok(ops.grow(id(r), r.body(GrowRequest.class))))
                .route("POST", "/allocations/{id}/release", r -> Response.ok(ops.release(id(r),
                        r.body(ReleaseRequest.class))))
                .route("GET", "/allocations/{id}", r -> Response.ok(ops.job(id(r))))
                .route("DELETE", "/allocations/{id}", r -> Response.ok(ops.close(id(r))))
                .route("POST", "/allocations/{id}/fail", r -> Response.ok(ops.fail(id(r), failure(r))))
                .route("POST", "/frameworks", r -> Response.created(ops.register(r.body(FrameworkRegistration.class))))
                .route("POST", "/frameworks/{id}/master", r -> Response.ok(ops.master(id(r), r.body(MasterAddress.class))))
                .route("GET", "/frameworks", r -> Response.ok(ops.frameworks()))
                .route("GET", "/frameworks/{id}", r -> Response.ok(ops.framework(id(r))));
    }

    /**
     * The node launchers' routes only, each authenticated by the node's token: what the scheduler
     * serves on the grid's address, which every host of the grid reaches.
     */
    public static void registerNodes(JsonHttpServer server, Operations ops) {
        server.route("POST", "/nodes/{id}/arrive", r -> Response.ok(ops.arrive(r.param("id"), report(r, false))))
                .route("GET", "/nodes/{id}/task", r -> Response.ok(longPoll(ops, r)))
                .route("POST", "/nodes/{id}/exit", r -> Response.ok(ops.exited(r.param("id"), report(r, true))));
    }

    private static String failure(Request r) {
        AllocationFailure failure = r.body(AllocationFailure.class);
        if (failure.reason() == null || failure.reason().isBlank()) {
            throw ApiException.badRequest("reason", "missing: why the instance failed");
        }
        return failure.reason();
    }

    private static Object submit(Operations ops, Request r) {
        SubmitRequest request = r.body(SubmitRequest.class);
        if (request.jdf() == null || request.jdf().isBlank()) {
            throw ApiException.badRequest("jdf", "missing: the text of the job description");
        }
        try {
            return ops.submit(new SubmitRequest(Optional.ofNullable(request.file()).orElse("-"), request.jdf()));
        } catch (JdfException e) {
            throw new ApiException(400, e.getMessage(), "jdf");
        }
    }

    private static NodeTask longPoll(Operations ops, Request r) {
        String token = r.queryParam("token").orElseThrow(() -> new ApiException(401, "token: missing", "token"));
        long waitMs = Math.min(60_000, r.queryParam("waitMs").map(parse("waitMs")).orElse(0L));
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        NodeTask task = ops.task(r.param("id"), token);
        try {
            while (task.action().equals("WAIT") && System.nanoTime() < deadline) {
                ops.awaitChange(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                task = ops.task(r.param("id"), token);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return task;
    }

    private static NodeReport report(Request r, boolean exit) {
        NodeReport report = r.body(NodeReport.class);
        if (report.token() == null) {
            throw new ApiException(401, "token: missing", "token");
        }
        if (exit && report.exitStatus() == null) {
            throw ApiException.badRequest("exitStatus", "missing");
        }
        return report;
    }

    private static long id(Request r) {
        return parse("id").apply(r.param("id"));
    }

    private static Function<String, Long> parse(String field) {
        return s -> {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest(field, "'" + s + "' is not a number");
            }
        };
    }
}
