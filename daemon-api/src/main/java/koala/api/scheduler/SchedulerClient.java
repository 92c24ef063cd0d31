package koala.api.scheduler;

import com.fasterxml.jackson.core.type.TypeReference;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.http.JsonHttpClient;

/** The scheduler's HTTP API as the CLI and the node launchers call it. */
public final class SchedulerClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** Every scheduler that may lead, each as this client calls it; one but for a grid of several schedulers. */
    private final List<JsonHttpClient> schedulers;
    /** The scheduler called now: the next after a call that did not reach a leader. Shared by this client's copies. */
    private final java.util.concurrent.atomic.AtomicInteger current;
    private final Duration retryFor;
    private final String actingFor;

    /**
     * A client of the scheduler at {@code base}: {@code unix:/PATH} for its Unix socket (the caller is
     * who the kernel says), or {@code http://127.0.0.1:PORT} with the token in {@code KOALA_TOKEN}.
     */
    public SchedulerClient(URI base) {
        this(withToken(isUnix(base) ? JsonHttpClient.unixSocket(Path.of(base.getSchemeSpecificPart()), TIMEOUT)
                : new JsonHttpClient(base, TIMEOUT)), RETRY_FOR);
    }

    private SchedulerClient(JsonHttpClient http, Duration retryFor) {
        this(List.of(http), new java.util.concurrent.atomic.AtomicInteger(), retryFor, null);
    }

    private SchedulerClient(List<JsonHttpClient> schedulers, java.util.concurrent.atomic.AtomicInteger current,
                            Duration retryFor, String actingFor) {
        this.schedulers = actingFor == null ? List.copyOf(schedulers)
                : schedulers.stream().map(h -> h.withHeader(ACT_FOR, actingFor)).toList();
        this.current = current;
        this.retryFor = retryFor;
        this.actingFor = actingFor;
    }

    /**
     * A client of the schedulers at {@code bases} that share one store (each as {@link #SchedulerClient(URI)}
     * takes it): a call that does not reach the leader (nothing listens, no answer in time, or a standby's
     * 503) moves the client to the next, and a submit, retried under its name, reaches the leader wherever it is.
     */
    public static SchedulerClient following(List<URI> bases) {
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("no scheduler to call");
        }
        return new SchedulerClient(bases.stream().map(b -> new SchedulerClient(b).http()).toList(),
                new java.util.concurrent.atomic.AtomicInteger(), RETRY_FOR, null);
    }

    /** The scheduler called now. */
    private JsonHttpClient http() {
        return schedulers.get(Math.floorMod(current.get(), schedulers.size()));
    }

    /** How often a client of several schedulers asks them all again while none leads. */
    static final Duration FOLLOW_EVERY = Duration.ofMillis(250);

    /** The start of a standby scheduler's refusal (503): it leads nothing, so nothing was done there. */
    public static final String STANDBY = "this scheduler is a standby";

    /**
     * The call to the scheduler called now. One that certainly did nothing there (nothing listens, or a
     * standby refused it) is made to the next at once; when every scheduler refused it so (a take-over
     * under way: the leader gone, the standby not leading yet), it is made again every {@link #FOLLOW_EVERY} for
     * up to {@link #RETRY_FOR}. One that got no answer in time may have been done, and is left to the caller (a
     * named request's retry). Either moves this client on to the next scheduler.
     */
    private <T> T call(java.util.function.Function<JsonHttpClient, T> call) {
        if (schedulers.size() == 1) {
            return call.apply(schedulers.get(0));
        }
        Object[] result = new Object[1];
        koala.http.ApiException[] failed = new koala.http.ApiException[1];
        boolean done;
        try {
            // a take-over under way sends no signal: every scheduler is asked again, often enough that the new
            // leader's first answer comes soon after it serves (a refused connection or a standby's 503 is cheap)
            done = new koala.common.time.Poll(java.time.InstantSource.system(), FOLLOW_EVERY).until(() -> {
                try {
                    result[0] = eachOnce(call);
                    return true;
                } catch (koala.http.ApiException e) {
                    failed[0] = e;
                    return false;
                }
            }, retryFor);
        } catch (MayBeDone e) {
            throw e.failure;
        }
        if (!done) {
            throw failed[0];
        }
        @SuppressWarnings("unchecked")
        T t = (T) result[0];
        return t;
    }

    /**
     * The call to each scheduler in turn from the one called now, until one answers; a failure that may
     * have done something is thrown at once, wrapped so that {@link #call} does not ask again.
     */
    private <T> T eachOnce(java.util.function.Function<JsonHttpClient, T> call) {
        koala.http.ApiException failed = null;
        for (int tried = 0; tried < schedulers.size(); tried++) {
            int at = current.get();
            try {
                return call.apply(schedulers.get(Math.floorMod(at, schedulers.size())));
            } catch (koala.http.ApiException e) {
                if (e.transientFailure()) {
                    current.compareAndSet(at, at + 1);
                }
                if (!e.transientFailure() || !nothingDone(e)) {
                    throw new MayBeDone(e);
                }
                failed = e;
            }
        }
        throw failed;
    }

    /** A failure after which the call is not made again: it was refused, or may have been done. */
    private static final class MayBeDone extends RuntimeException {
        final koala.http.ApiException failure;

        MayBeDone(koala.http.ApiException failure) {
            super(failure.getMessage(), failure, false, false);
            this.failure = failure;
        }
    }

    /** A failure that certainly left nothing done: the scheduler was not reached, or is a standby. */
    private static boolean nothingDone(koala.http.ApiException e) {
        return e.unreached() || (e.status() == 503 && String.valueOf(e.getMessage()).contains(STANDBY));
    }

    /**
     * A client for a process that makes a few calls and exits (the command line): a connection per
     * call, no threads ({@link JsonHttpClient#shortLived}).
     */
    public static SchedulerClient shortLived(URI base) {
        return isUnix(base) ? new SchedulerClient(new SchedulerClient(base).http(), USER_RETRY_FOR)
                : new SchedulerClient(withToken(JsonHttpClient.shortLived(base, TIMEOUT)), USER_RETRY_FOR);
    }

    /**
     * The header with which an admin acts for another user ({@code koala submit --as USER}, as Slurm's
     * {@code --uid}): the scheduler takes the request as that user's, and refuses it from anyone
     * but an admin.
     */
    public static final String ACT_FOR = "Koala-Act-For";

    /** This client acting for {@code user} (an admin's client only; null or blank: as itself). */
    public SchedulerClient actingFor(String user) {
        return user == null || user.isBlank() ? this : new SchedulerClient(schedulers, current, retryFor, user.strip());
    }

    /** The user this client acts for, if it does: a process it starts (a framework runner) acts for the same. */
    /**
     * The same client for a framework runner of {@code generation} ({@link RunnerGeneration}): each call
     * carries it, and one the scheduler knows the runner was replaced in is refused.
     */
    public SchedulerClient asRunner(long generation) {
        return new SchedulerClient(schedulers.stream().map(h -> h.withHeader(RunnerGeneration.HEADER,
                Long.toString(generation))).toList(), current, retryFor, actingFor);
    }

    public java.util.Optional<String> actingFor() {
        return java.util.Optional.ofNullable(actingFor);
    }

    private boolean socketMissing() {
        URI base = http().base();
        return schedulers.size() == 1 && isUnix(base) && !java.nio.file.Files.exists(Path.of(base.getSchemeSpecificPart()));
    }

    private static boolean isUnix(URI base) {
        return "unix".equals(base.getScheme());
    }

    /** Over TCP the scheduler wants a token; a program finds its own in {@code KOALA_TOKEN}. */
    private static JsonHttpClient withToken(JsonHttpClient http) {
        String token = System.getenv("KOALA_TOKEN");
        return isUnix(http.base()) || token == null || token.isBlank() ? http : http.withBearer(token.strip());
    }

    /** A token naming the caller for this long (over the Unix socket only). */
    public TokenView createToken(java.time.Duration lifetime) {
        return call(h -> h.post("/tokens", new TokenRequest(lifetime.toSeconds()), TokenView.class));
    }

    /** A new token key: every token issued so far is refused (admins only). */
    public void rotateTokenKey() {
        call(h -> h.post("/tokens/rotate", java.util.Map.of(), java.util.Map.class));
    }

    /** Backs the scheduler's database up now, into {@code file} in its backups directory (null: named after the time); admins only. */
    public BackupView backup(String file) {
        return call(h -> h.post("/admin/backup", new BackupRequest(file), BackupView.class));
    }

    public URI base() {
        return http().base();
    }

    /** The scheduler process that answers: the leader's, when a standby passed the call on. */
    public SchedulerProcess scheduler() {
        return call(h -> h.get("/scheduler", SchedulerProcess.class));
    }

    /**
     * Submits a job. The request is named (if the caller did not) and retried with the same name
     * while the scheduler cannot be reached or does not answer in time, for at most {@link #RETRY_FOR}:
     * the scheduler makes one job of every try of one name, so a retry never makes a second job.
     */
    public JobView submit(SubmitRequest request) {
        SubmitRequest named = request.named(newRequestId());
        return retrying(() -> call(h -> h.post("/jobs", named, JobView.class)));
    }

    /** When the job of {@code request} would likely start, were it submitted now: a dry run, nothing queued. */
    public StartEstimateView estimate(SubmitRequest request) {
        return call(h -> h.post("/estimates", request, StartEstimateView.class));
    }

    public JobView job(long id) {
        return call(h -> h.get("/jobs/" + id, JobView.class));
    }

    /** Job {@code id} with only the nodes it holds now and no history: for following an allocation. */
    public JobView heldNow(long id) {
        return call(h -> h.get("/jobs/" + id + "?held=true", JobView.class));
    }

    public List<JobView> jobs() {
        return call(h -> h.get("/jobs", new TypeReference<List<JobView>>() { }));
    }

    public JobView cancel(long id) {
        return call(h -> h.delete("/jobs/" + id, JobView.class));
    }

    /**
     * The usage records of jobs and instances that ended ({@code GET /accounting}), oldest first: the
     * caller's own, or an admin's pick; each filter null for any.
     *
     * @param user     whose (an admin may name anyone; a user only themself)
     * @param since    only those that ended at or after it
     * @param instance only this framework instance's
     * @param limit    at most this many, the newest that match
     */
    public AccountingView accounting(String user, java.time.Instant since, Long instance, int limit) {
        StringBuilder query = new StringBuilder("/accounting?limit=").append(limit);
        if (user != null) {
            query.append("&user=").append(java.net.URLEncoder.encode(user, java.nio.charset.StandardCharsets.UTF_8));
        }
        if (since != null) {
            query.append("&since=").append(since);
        }
        if (instance != null) {
            query.append("&instance=").append(instance);
        }
        return call(h -> h.get(query.toString(), AccountingView.class));
    }

    public List<SiteStatus> sites() {
        return call(h -> h.get("/sites", new TypeReference<List<SiteStatus>>() { }));
    }

    /** Opens an allocation; named and retried as {@link #submit} is: a retry never opens a second. */
    public JobView allocate(AllocationRequest request) {
        AllocationRequest named = request.named(newRequestId());
        return retrying(() -> call(h -> h.post("/allocations", named, JobView.class)));
    }

    /**
     * As {@link #submit}, in plain JSON (no Jackson: a command line that only prints the job's line
     * starts in far fewer classes); the answer is the job as a map ({@code id}, {@code name},
     * {@code kind}, {@code state}, ...).
     */
    public Map<String, Object> submitPlain(String file, String jdf) {
        String id = newRequestId();
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("file", file);
        body.put("jdf", jdf);
        body.put("requestId", id);
        return retrying(() -> call(h -> h.plain("POST", "/jobs", body)));
    }

    /** Grows an allocation; named and retried as {@link #submit} is: a retry never grants the nodes twice. */
    public GrowResult grow(long allocation, GrowRequest request) {
        GrowRequest named = request.named(newRequestId());
        return retrying(() -> call(h -> h.post("/allocations/" + allocation + "/grow", named, GrowResult.class)));
    }

    /**
     * How long a named request is tried again while the scheduler is unreachable or silent: a program
     * (a runner) outlasts a scheduler's restart; a person at the command line is not kept waiting.
     */
    public static final Duration RETRY_FOR = Duration.ofSeconds(75);
    static final Duration USER_RETRY_FOR = Duration.ofSeconds(10);

    /**
     * A name no other request of this caller has: the scheduler keeps answers per owner and request,
     * so unique per user is enough — process, time and a random number, without seeding a
     * {@code SecureRandom} (some 30 ms of a command line's start).
     */
    static String newRequestId() {
        return Long.toHexString(ProcessHandle.current().pid()) + "-" + Long.toHexString(System.currentTimeMillis())
                + "-" + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
    }

    private <T> T retrying(java.util.function.Supplier<T> call) {
        java.time.Instant until = java.time.InstantSource.system().instant().plus(retryFor);
        Object[] result = new Object[1];
        koala.http.ApiException[] last = new koala.http.ApiException[1];
        boolean done = new koala.common.time.Poll(java.time.InstantSource.system(), Duration.ofSeconds(1)).until(() -> {
            try {
                result[0] = call.get();
                return true;
            } catch (koala.http.ApiException e) {
                // no socket at all: no scheduler runs here (one that died leaves its socket behind)
                boolean again = e.transientFailure() && !socketMissing()
                        && java.time.InstantSource.system().instant().isBefore(until);
                if (!again) {
                    throw e;
                }
                last[0] = e;
                return false;
            }
        }, retryFor);
        if (!done) {
            throw last[0];
        }
        @SuppressWarnings("unchecked")
        T t = (T) result[0];
        return t;
    }

    public JobView release(long allocation, ReleaseRequest request) {
        return call(h -> h.post("/allocations/" + allocation + "/release", request, JobView.class));
    }

    public JobView closeAllocation(long allocation) {
        return call(h -> h.delete("/allocations/" + allocation, JobView.class));
    }

    /** Ends the allocation as FAILED, with why its instance failed. */
    public JobView failAllocation(long allocation, String reason) {
        return call(h -> h.post("/allocations/" + allocation + "/fail", new AllocationFailure(reason), JobView.class));
    }

    /** A runner's report of its workers' activity; the answer says what the grid's arbitration asks of it. */
    public ShareOrders report(long allocation, ShareReport report) {
        return call(h -> h.post("/allocations/" + allocation + "/share", report, ShareOrders.class));
    }

    public FrameworkView register(FrameworkRegistration registration) {
        return call(h -> h.post("/frameworks", registration, FrameworkView.class));
    }

    public FrameworkView master(long framework, MasterAddress master) {
        return call(h -> h.post("/frameworks/" + framework + "/master", master, FrameworkView.class));
    }

    public FrameworkView framework(long id) {
        return call(h -> h.get("/frameworks/" + id, FrameworkView.class));
    }

    public List<FrameworkView> frameworks() {
        return call(h -> h.get("/frameworks", new TypeReference<List<FrameworkView>>() { }));
    }

    public NodeTask arrive(String node, NodeReport report) {
        return call(h -> h.post("/nodes/" + node + "/arrive", report, NodeTask.class));
    }

    public NodeTask task(String node, String token, Duration wait) {
        return call(h -> h.getLong("/nodes/" + node + "/task?token=" + token + "&waitMs=" + wait.toMillis(), NodeTask.class, wait));
    }

    public NodeTask exited(String node, NodeReport report) {
        return call(h -> h.post("/nodes/" + node + "/exit", report, NodeTask.class));
    }
}
