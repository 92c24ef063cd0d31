package koala.scheduler.api;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import koala.api.scheduler.AllocationFailure;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.NodeTask;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.SubmitRequest;
import koala.api.scheduler.TokenRequest;
import koala.api.scheduler.TokenView;
import koala.common.failure.Failure;
import koala.common.failure.Forbidden;
import koala.common.failure.OverLimit;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Request;
import koala.http.Response;
import koala.jdf.JdfException;

/**
 * The scheduler's HTTP/JSON API.
 *
 * <pre>
 * Every route but the nodes' and the live page's needs an identity ({@link Callers}: the Unix socket's peer, or a
 * token); changing a job, an allocation or an instance needs its owner or an admin (403
 * otherwise), and every change asked for is written to the audit log, done or refused.
 *
 * POST   /estimates            {file, jdf}: when that job would likely start, were it submitted now (a dry run:
 *                               nothing queued); 200 with the estimate, 400 as a submit
 * POST   /jobs                 submit {file, jdf, requestId}; 201 with the job, 400 listing every JDF error;
 *                               a requestId the caller used before gets the job that request made
 * GET    /jobs                 every job
 * GET    /jobs/{id}            one job: state, why it waits, nodes, history
 *                               (?held=true: only the nodes it holds now, no history: what a runner follows)
 * DELETE /jobs/{id}            cancel
 * POST   /allocations          a runner opens an allocation {owner}; 201
 * POST   /allocations/{id}/grow     {nodes, role, executable, arguments, environment, site}: granted nodes
 * POST   /allocations/{id}/release  {nodes: [ids]}: give nodes back; 409 if one is not the allocation's
 * GET    /allocations/{id}     the allocation and its nodes (as a job)
 * DELETE /allocations/{id}     close it: every node given back
 * POST   /allocations/{id}/fail     {reason}: end it as FAILED (its instance failed): every node given back
 * POST   /frameworks          register a framework instance on its allocation (FrameworkJobManager)
 * POST   /frameworks/{id}/master  {node, address}: where clients reach the instance's master
 * (a framework runner's calls about its instance carry its generation, X-Koala-Runner-Generation: one
 *  from a runner that was replaced is refused, 410, naming the one in its place)
 * GET    /frameworks          every instance; GET /frameworks/{id} one
 * GET    /sites                every site: nodes total, idle, KOALA's, others', claiming, agent health
 * GET    /accounting           ?user=&amp;since=ISO-INSTANT&amp;instance=ID&amp;limit=N: usage records of ended jobs and
 *                               instances from the accounting file, oldest first, the newest N (10000) that match:
 *                               the caller's own; an admin's, anyone's (user= to pick one). Read off the loop
 * POST   /tokens               {lifetimeSeconds}: a signed token naming the caller (Unix socket callers only)
 * POST   /tokens/rotate        a new token key: every token issued so far is refused (admins only)
 * POST   /admin/backup         {file}: back the database up now, online, into a zip in the scheduler's backups
 *                               directory (file: a plain name; none: named after the time); admins only
 * POST   /nodes/{id}/arrive    a node launcher arrived {token, host}; answers its task
 * GET    /nodes/{id}/task      ?token=..&amp;waitMs=N: long-poll for the node's task (WAIT, RUN, EXIT)
 * POST   /nodes/{id}/exit      the node's command ended {token, exitStatus}
 * POST   /nodes/{id}/mpi       the first node of an MPI job: start a daemon {token, host, command} on the
 *                               job's node on that host; answers {node}
 * GET    /  (or /live)         the live page ({@link LivePage}): HTML that reads /sites, /jobs and /frameworks
 *                               with the token its user pastes; the page itself is open, it holds no data
 * GET    /scheduler            the scheduler process: {pid, reloadsOnHangup, hangupWarning} (whether SIGHUP
 *                               reloads its configuration; not under nohup); not through the loop
 * GET    /metrics              the scheduler's metrics in OpenMetrics text (when Accept asks for it) or
 *                               Prometheus text 0.0.4 ({@link #registerMetrics}): for any identified caller
 *                               or the metrics token ({@link MetricsToken}); never waits for the loop
 * </pre>
 */
public final class SchedulerApi {
    /** The operations the API exposes, each run on the scheduler's loop. */
    public interface Operations {
        Object submit(Caller caller, SubmitRequest request);

        /** When the job of {@code request} would likely start, were it submitted now; nothing is queued. */
        Object estimate(Caller caller, SubmitRequest request);

        /** @param heldOnly only the nodes it holds now, and no history */
        Object job(long id, boolean heldOnly);

        Object jobs();

        Object cancel(Caller caller, long id);

        Object sites();

        /**
         * Usage records from the accounting file (read on the caller's thread, never the loop's).
         *
         * @param user     whose records were asked for; null for the caller's own (an admin's: everyone's)
         * @param since    those that ended at or after it; null for any
         * @param instance that framework instance's; null for any
         */
        Object accounting(Caller caller, String user, java.time.Instant since, Long instance, int limit);

        Object allocate(Caller caller, AllocationRequest request);

        Object grow(Caller caller, long id, GrowRequest request);

        Object release(Caller caller, long id, ReleaseRequest request);

        Object close(Caller caller, long id);

        /** A runner's report of its workers for sharing the grid; the answer is what sharing asks of it. */
        Object report(Caller caller, long id, ShareReport report);

        Object fail(Caller caller, long id, String reason);

        Object register(Caller caller, FrameworkRegistration registration);

        Object master(Caller caller, long id, MasterAddress master);

        /** Makes a new token key. */
        void rotateTokenKey();

        /**
         * Backs the database up now, while the scheduler runs, into {@code file} in its backups
         * directory (null: named after the time); answers what it wrote. Run on the caller's thread.
         */
        Object backup(String file);

        Object framework(long id);

        Object frameworks();

        NodeTask arrive(String node, NodeReport report);

        NodeTask task(String node, String token);

        NodeTask exited(String node, NodeReport report);

        /** The first node of an MPI job asks for a daemon on another of its nodes; answers that node's id. */
        Object mpiStart(String node, koala.api.scheduler.MpiStart request);

        void awaitChange(long millis) throws InterruptedException;

        /**
         * The same operations for a framework runner of {@code generation}: a call about an instance whose
         * runner was replaced since is refused ({@link koala.api.scheduler.RunnerGeneration}).
         */
        Operations asRunner(long generation);
    }

    private SchedulerApi() {
    }

    /** Every route: for this machine's users and KOALA's own processes, and the live page for their browsers. */
    public static void register(JsonHttpServer server, Operations ops, Callers callers, AuditLog audit) {
        registerUsers(server, ops, new Asking(callers, audit));
        registerNodes(server, ops);
        LivePage.load().register(server);
    }

    private static void registerUsers(JsonHttpServer server, Operations ops, Asking ask) {
        server.route("POST", "/jobs", r -> Response.created(ask.change(r, "submit", "a job",
                        c -> submit(ops, c, r))))
                .route("POST", "/estimates", r -> Response.ok(ask.quietly(r, c -> estimate(ops, c, r))))
                .route("GET", "/jobs", r -> Response.ok(ask.look(r, ops::jobs)))
                .route("GET", "/jobs/{id}", r -> Response.ok(ask.look(r, () -> runner(ops, r).job(id(r),
                        r.queryParam("held").map(Boolean::parseBoolean).orElse(false)))))
                .route("DELETE", "/jobs/{id}", r -> Response.ok(ask.change(r, "cancel", "job " + id(r),
                        c -> ops.cancel(c, id(r)))))
                .route("GET", "/sites", r -> Response.ok(ask.look(r, ops::sites)))
                .route("GET", "/accounting", r -> Response.ok(ask.quietly(r, c -> ops.accounting(c,
                        r.queryParam("user").filter(u -> !u.isBlank()).orElse(null), since(r),
                        r.queryParam("instance").map(parse("instance")).orElse(null), limit(r)))))
                .route("POST", "/allocations", r -> Response.created(ask.change(r, "open", "an allocation",
                        c -> ops.allocate(c, r.body(AllocationRequest.class)))))
                .route("POST", "/allocations/{id}/grow", r -> Response.ok(ask.change(r, "grow", "allocation " + id(r),
                        c -> runner(ops, r).grow(c, id(r), r.body(GrowRequest.class)))))
                .route("POST", "/allocations/{id}/release", r -> Response.ok(ask.change(r, "release",
                        "allocation " + id(r), c -> runner(ops, r).release(c, id(r), r.body(ReleaseRequest.class)))))
                .route("POST", "/allocations/{id}/share", r -> Response.ok(ask.quietly(r,
                        c -> runner(ops, r).report(c, id(r), r.body(ShareReport.class)))))
                .route("GET", "/allocations/{id}", r -> Response.ok(ask.look(r, () -> runner(ops, r).job(id(r),
                        r.queryParam("held").map(Boolean::parseBoolean).orElse(false)))))
                .route("DELETE", "/allocations/{id}", r -> Response.ok(ask.change(r, "close", "allocation " + id(r),
                        c -> runner(ops, r).close(c, id(r)))))
                .route("POST", "/allocations/{id}/fail", r -> Response.ok(ask.change(r, "fail", "allocation " + id(r),
                        c -> runner(ops, r).fail(c, id(r), failure(r)))))
                .route("POST", "/frameworks", r -> Response.created(ask.change(r, "register", "a framework instance",
                        c -> ops.register(c, r.body(FrameworkRegistration.class)))))
                .route("POST", "/frameworks/{id}/master", r -> Response.ok(ask.change(r, "re-point",
                        "framework instance " + id(r), c -> runner(ops, r).master(c, id(r), r.body(MasterAddress.class)))))
                .route("GET", "/frameworks", r -> Response.ok(ask.look(r, ops::frameworks)))
                .route("GET", "/frameworks/{id}", r -> Response.ok(ask.look(r, () -> ops.framework(id(r)))))
                .route("POST", "/tokens", r -> Response.created(ask.change(r, "create", "a token",
                        c -> token(ask, c, r))))
                .route("POST", "/tokens/rotate", r -> Response.ok(ask.change(r, "rotate", "the token key",
                        c -> rotate(ops, c))))
                .route("POST", "/admin/backup", r -> Response.created(ask.change(r, "back up", "the database",
                        c -> backup(ops, c, r))));
    }

    /**
     * The users' routes on the grid's address ({@code endpoint} of {@code server}), for the calls a standby
     * passes on ({@link LeaderRelay}) and nothing else: a request there without a standby's voucher finds
     * no such route (404), as before relays, so beyond loopback users are served only through a standby
     * that identified them on its own host.
     */
    public static void registerRelayed(JsonHttpServer server, String endpoint, Operations ops, Callers callers,
                                       AuditLog audit, java.util.function.Supplier<koala.api.scheduler.SchedulerProcess> process) {
        server.guard(endpoint, r -> {
            if (r.header(koala.auth.Vouchers.HEADER).isEmpty() && !r.path().startsWith("/nodes/")
                    && !r.path().equals("/metrics")) {
                throw new ApiException(404, "no such resource: " + r.path());
            }
        });
        registerUsers(server, ops, new Asking(callers, audit));
        registerProcess(server, process, callers);
    }

    /**
     * A standby's users' routes: a token is made here (the grid's schedulers share the token key, and a
     * token had better not cross the network), the key's rotation is refused (it is a file of the
     * leader's host), and everything else goes to the leader ({@code relay}).
     */
    public static void registerStandby(JsonHttpServer server, Callers callers, AuditLog audit, LeaderRelay relay) {
        Asking ask = new Asking(callers, audit);
        server.route("POST", "/tokens", r -> Response.created(ask.change(r, "create", "a token", c -> token(ask, c, r))))
                .route("POST", "/tokens/rotate", r -> {
                    throw new ApiException(409, koala.api.scheduler.SchedulerClient.STANDBY + ": rotate the token key"
                            + " on the leading scheduler's host, then copy its KOALA_HOME/token.key to every scheduler's host");
                })
                .otherwise(relay);
    }

    private static TokenView token(Asking ask, Caller c, Request r) {
        if (!c.via().equals(Callers.UNIX)) {
            throw new Forbidden("a token is made over the scheduler's Unix socket only, not with another token");
        }
        TokenRequest request = r.body().length == 0 ? new TokenRequest(null) : r.body(TokenRequest.class);
        long seconds = Optional.ofNullable(request.lifetimeSeconds()).orElse(86_400L);
        if (seconds < 1 || seconds > 366L * 86_400) {
            throw ApiException.badRequest("lifetimeSeconds", seconds + " is out of range: 1 to 31622400 (366 days)");
        }
        return ask.callers.issue(c, Duration.ofSeconds(seconds));
    }

    private static Map<String, String> rotate(Operations ops, Caller c) {
        if (!c.admin()) {
            throw new Forbidden(c.user() + " may not rotate the token key: admins only");
        }
        ops.rotateTokenKey();
        return Map.of("rotated", "every token issued before now is refused");
    }

    /** The operations for a framework runner's call, fenced by the generation it sends; {@code ops} for any other. */
    private static Operations runner(Operations ops, Request r) {
        return r.header(koala.api.scheduler.RunnerGeneration.HEADER).map(parse(koala.api.scheduler.RunnerGeneration.HEADER))
                .map(ops::asRunner).orElse(ops);
    }

    private static Object backup(Operations ops, Caller c, Request r) {
        if (!c.admin()) {
            throw new Forbidden(c.user() + " may not back up the database: admins only");
        }
        koala.api.scheduler.BackupRequest request = r.body().length == 0 ? new koala.api.scheduler.BackupRequest(null)
                : r.body(koala.api.scheduler.BackupRequest.class);
        return ops.backup(request.file() == null || request.file().isBlank() ? null : request.file());
    }

    /** Identifies each request's caller and writes each change it asks for to the audit log. */
    private static final class Asking {
        private final Callers callers;
        private final AuditLog audit;

        Asking(Callers callers, AuditLog audit) {
            this.callers = callers;
            this.audit = audit;
        }

        Object look(Request r, java.util.function.Supplier<Object> read) {
            callers.of(r);
            return read.get();
        }

        /** A call each runner makes every second that changes nothing of anyone's: identified, not audited. */
        <T> T quietly(Request r, Function<Caller, T> work) {
            return work.apply(callers.of(r));
        }

        <T> T change(Request r, String action, String target, Function<Caller, T> work) {
            Caller caller;
            try {
                caller = callers.of(r);
            } catch (Forbidden e) { // an act-for by one who may not
                audit.denied(callers.identified(r), action, target, e.getMessage());
                throw e;
            }
            try {
                T result = work.apply(caller);
                audit.done(caller, action, target);
                return result;
            } catch (Forbidden | OverLimit e) {
                audit.denied(caller, action, target, e.getMessage());
                throw e;
            } catch (Failure | ApiException e) {
                audit.refused(caller, action, target, e.getMessage());
                throw e;
            }
        }
    }

    /**
     * The node launchers' routes only, each authenticated by the node's token: what the scheduler
     * serves on the grid's address, which every host of the grid reaches.
     */
    public static void registerNodes(JsonHttpServer server, Operations ops) {
        server.route("POST", "/nodes/{id}/arrive", r -> Response.ok(ops.arrive(r.param("id"), report(r, false))))
                .route("GET", "/nodes/{id}/task", r -> Response.ok(longPoll(ops, r)))
                .route("POST", "/nodes/{id}/exit", r -> Response.ok(ops.exited(r.param("id"), report(r, true))))
                .route("POST", "/nodes/{id}/mpi", r -> Response.ok(ops.mpiStart(r.param("id"), mpiStart(r))));
    }

    /**
     * {@code GET /scheduler} on {@code server}: the scheduler as a process (its pid, whether SIGHUP
     * reloads it), for any identified caller; not through the loop.
     */
    public static void registerProcess(JsonHttpServer server, java.util.function.Supplier<koala.api.scheduler.SchedulerProcess> process,
                                       Callers callers) {
        server.route("GET", "/scheduler", callers::of, r -> Response.ok(process.get()));
    }

    /**
     * {@code GET /metrics} on {@code server}, for the requests {@code readers} lets through; {@code scrape}
     * renders the metrics in the format the request's {@code Accept} header asks for. Nothing here
     * goes through the scheduler's loop: a scrape answers while the loop is busy, or stuck.
     */
    public static void registerMetrics(JsonHttpServer server,
                                       Function<String, koala.scheduler.metrics.SchedulerMetrics.Scrape> scrape,
                                       koala.http.Guard readers) {
        server.route("GET", "/metrics", readers, r -> {
            koala.scheduler.metrics.SchedulerMetrics.Scrape s = scrape.apply(r.header("Accept").orElse(null));
            return Response.raw(s.contentType(), s.body());
        });
    }

    private static String failure(Request r) {
        AllocationFailure failure = r.body(AllocationFailure.class);
        if (failure.reason() == null || failure.reason().isBlank()) {
            throw ApiException.badRequest("reason", "missing: why the instance failed");
        }
        return failure.reason();
    }

    private static Object submit(Operations ops, Caller caller, Request r) {
        SubmitRequest request = r.body(SubmitRequest.class);
        if (request.jdf() == null || request.jdf().isBlank()) {
            throw ApiException.badRequest("jdf", "missing: the text of the job description");
        }
        try {
            return ops.submit(caller, new SubmitRequest(Optional.ofNullable(request.file()).orElse("-"), request.jdf(),
                    request.requestId()));
        } catch (JdfException e) {
            throw new ApiException(400, e.getMessage(), "jdf");
        }
    }

    private static Object estimate(Operations ops, Caller caller, Request r) {
        SubmitRequest request = r.body(SubmitRequest.class);
        if (request.jdf() == null || request.jdf().isBlank()) {
            throw ApiException.badRequest("jdf", "missing: the text of the job description");
        }
        try {
            return ops.estimate(caller, new SubmitRequest(Optional.ofNullable(request.file()).orElse("-"), request.jdf(),
                    null));
        } catch (JdfException e) {
            throw new ApiException(400, e.getMessage(), "jdf");
        }
    }

    private static koala.api.scheduler.MpiStart mpiStart(Request r) {
        koala.api.scheduler.MpiStart start = r.body(koala.api.scheduler.MpiStart.class);
        if (start.token() == null) {
            throw new ApiException(401, "token: missing", "token");
        }
        if (start.host() == null || start.host().isBlank()) {
            throw ApiException.badRequest("host", "missing: the host the daemon is for");
        }
        return start;
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

    private static java.time.Instant since(Request r) {
        return r.queryParam("since").map(s -> {
            try {
                return java.time.Instant.parse(s);
            } catch (java.time.format.DateTimeParseException e) {
                throw ApiException.badRequest("since", "'" + s + "' is not an instant such as 2026-11-25T08:00:00Z");
            }
        }).orElse(null);
    }

    private static int limit(Request r) {
        long limit = r.queryParam("limit").map(parse("limit"))
                .orElse((long) koala.scheduler.accounting.AccountingQuery.DEFAULT_LIMIT);
        if (limit < 1 || limit > koala.scheduler.accounting.AccountingQuery.MAX_LIMIT) {
            throw ApiException.badRequest("limit", limit + " is out of range: 1 to "
                    + koala.scheduler.accounting.AccountingQuery.MAX_LIMIT);
        }
        return (int) limit;
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
