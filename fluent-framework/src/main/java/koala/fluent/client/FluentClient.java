package koala.fluent.client;

import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import koala.api.runner.RunnerClient;
import koala.api.runner.TokenSource;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.SchedulerClient;
import koala.common.time.Poll;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpClient;

/**
 * A client of one framework instance's master, found through the FrameworkJobManager. The master
 * takes only callers holding the instance's token: its submitter has it in the runner's state file
 * ({@code KOALA_HOME/runners/runner-ID.json}), the instance's own processes in the file
 * {@code KOALA_RUNNER_TOKEN_FILE} names (their launcher keeps it up to date when the runner replaces
 * the token), read at each call.
 *
 * <p>A master may be restarted, on its node or another. A client found through the FJM follows it:
 * a read ({@code GET /jobs/{id}}, {@code /status}, {@code /metrics}) that finds no master asks the
 * FJM where the master is now and tries there, for up to {@link #FOLLOW}. A submission is not
 * repeated (the master may have taken it): its caller sees the error.
 */
public final class FluentClient {
    private static final Duration PLACE_TIMEOUT = Duration.ofMinutes(15);

    /** How long a read waits for a master that is being restarted. */
    static final Duration FOLLOW = Duration.ofSeconds(60);

    private final java.util.function.Supplier<String> token;
    private final String who;
    private final java.util.function.Supplier<java.util.Optional<URI>> locate;
    private volatile JsonHttpClient master;
    private volatile Duration refusedFor = TokenSource.ROTATION_WAIT;

    /** The master at {@code master}, called with the instance's {@code token}. */
    public FluentClient(URI master, String token) {
        this(master, token, "the master at " + master, null);
    }

    /** The master at {@code master}, called with the instance's token as {@code token} gives it at each call. */
    public FluentClient(URI master, java.util.function.Supplier<String> token) {
        this(master, token, "the master at " + master, null);
    }

    /** @param locate where the master is now (null: always at {@code master}) */
    FluentClient(URI master, String token, String who, java.util.function.Supplier<java.util.Optional<URI>> locate) {
        this(master, () -> token, who, locate);
    }

    private FluentClient(URI master, java.util.function.Supplier<String> token, String who,
                         java.util.function.Supplier<java.util.Optional<URI>> locate) {
        this.token = token;
        this.master = client(master);
        this.who = who;
        this.locate = locate;
    }

    private static JsonHttpClient client(URI master) {
        return new JsonHttpClient(master, Duration.ofSeconds(60));
    }

    /**
     * {@code call} with the token as it is now. Refused (401), it is made again for up to
     * {@link TokenSource#ROTATION_WAIT}: when the runner has just replaced the token, its owner's copy
     * has the new one before the master, which learns it at its launcher's next heartbeat. A refused
     * call changed nothing at the master, so a submission may be made again too.
     */
    private <T> T withToken(java.util.function.Function<JsonHttpClient, T> call) {
        ApiException[] refused = {null};
        Object[] answer = {null};
        boolean answered = new Poll(InstantSource.system(), Duration.ofMillis(250)).until(() -> {
            try {
                answer[0] = call.apply(signed());
                return true;
            } catch (ApiException e) {
                if (e.status() != 401) {
                    throw e;
                }
                refused[0] = e;
                return false;
            }
        }, refusedFor);
        if (!answered) {
            throw refused[0];
        }
        @SuppressWarnings("unchecked")
        T t = (T) answer[0];
        return t;
    }

    /** This client, giving up on a refused token after {@code wait} instead of {@link TokenSource#ROTATION_WAIT}. */
    public FluentClient refusedFor(Duration wait) {
        this.refusedFor = wait;
        return this;
    }

    /** The master's client, presenting the token as it is now. */
    private JsonHttpClient signed() {
        return master.withHeader("Authorization", new Secret(token.get()).header().get("Authorization"));
    }

    /** The master of instance {@code id}, as its runner registered it with the FJM, called with the instance's token. */
    public static FluentClient of(SchedulerClient scheduler, long id, String token) {
        return of(scheduler, id, () -> token);
    }

    /** The same, with the instance's token as {@code token} gives it at each call (the runner may replace it). */
    public static FluentClient of(SchedulerClient scheduler, long id, java.util.function.Supplier<String> token) {
        FrameworkView instance = scheduler.framework(id);
        if (!hasMaster(instance)) {
            throw new ApiException(409, "instance " + id + " (" + instance.state() + ") has no master address yet");
        }
        return new FluentClient(URI.create("http://" + instance.master().address()), token,
                "the master of instance " + id + " (" + instance.state() + ") at " + instance.master().address(),
                () -> java.util.Optional.ofNullable(scheduler.framework(id).master())
                        .map(m -> URI.create("http://" + m.address())));
    }

    /**
     * The master of instance {@code id} once it serves: an instance is RUNNING as soon as its
     * master's node is claimed, and its runner registers the master's address a moment later.
     */
    public static FluentClient serving(SchedulerClient scheduler, long id, String token, Duration timeout) {
        return serving(scheduler, id, () -> token, timeout);
    }

    /** The same, with the instance's token as {@code token} gives it at each call (the runner may replace it). */
    public static FluentClient serving(SchedulerClient scheduler, long id, java.util.function.Supplier<String> token,
                                       Duration timeout) {
        java.time.Instant until = java.time.Instant.now().plus(timeout);
        new Poll(InstantSource.system(), Duration.ofMillis(250)).until(() -> hasMaster(scheduler.framework(id)), timeout);
        Duration left = Duration.between(java.time.Instant.now(), until);
        return of(scheduler, id, token).awaitServing(left.isNegative() ? Duration.ZERO : left);
    }

    private static boolean hasMaster(FrameworkView instance) {
        return instance.master() != null && instance.master().address() != null;
    }

    /** For a process of the instance: its master ({@code KOALA_MASTER}), with the instance's token in force. */
    public static FluentClient fromEnvironment() {
        String master = System.getenv("KOALA_MASTER");
        java.util.Optional<TokenSource> token = TokenSource.fromEnvironment(System.getenv(),
                RunnerClient.TOKEN_FILE_VARIABLE, RunnerClient.TOKEN_VARIABLE);
        if (master == null || token.isEmpty()) {
            throw new IllegalStateException("KOALA_MASTER and " + RunnerClient.TOKEN_VARIABLE
                    + " are set only for the entities of a framework instance (not its master)");
        }
        return new FluentClient(URI.create("http://" + master), (java.util.function.Supplier<String>) token.get(),
                "the master at " + master, null);
    }

    /**
     * Waits until the master serves: its launcher reports it in as soon as the process starts, so
     * right after deployment a client may still find its port closed. Returns this client.
     */
    public FluentClient awaitServing(Duration timeout) {
        ApiException[] refused = {null};
        new Poll(InstantSource.system(), Duration.ofMillis(250)).until(() -> {
            try {
                answered(() -> withToken(m -> m.get("/status", MasterStatus.class)));
                refused[0] = null;
                return true;
            } catch (ApiException e) {
                refused[0] = e;
                return !e.transientFailure();
            }
        }, timeout);
        if (refused[0] != null) {
            throw refused[0];
        }
        return this;
    }

    public URI url() {
        return master.base();
    }

    /**
     * Submits a job and returns once it is placed: the master answers at once or, while the job
     * waits for a grow (or behind jobs that do), with its id, and the job is then polled.
     */
    public JobReply submit(JobRequest job) {
        JobReply reply = answered(() -> withToken(m -> m.post("/jobs", job, JobReply.class)));
        JobReply[] latest = {reply};
        boolean placed = reply.apps().isEmpty() ? new Poll(InstantSource.system(), Duration.ofMillis(300))
                .until(() -> !(latest[0] = job(reply.job())).apps().isEmpty(), PLACE_TIMEOUT) : true;
        if (!placed) {
            throw new ApiException(504, "job " + reply.job() + " not placed within " + PLACE_TIMEOUT.toMinutes()
                    + " min: " + latest[0].grow());
        }
        return latest[0];
    }

    public JobReply job(String id) {
        return read(m -> m.get("/jobs/" + id, JobReply.class));
    }

    public MasterStatus status() {
        return read(m -> m.get("/status", MasterStatus.class));
    }

    /** A read, following a master that is restarted (see the class comment). */
    private <T> T read(java.util.function.Function<JsonHttpClient, T> call) {
        try {
            return answered(() -> withToken(call));
        } catch (ApiException e) {
            if (locate == null || !e.transientFailure()) {
                throw e;
            }
            Object[] answer = {null};
            boolean back = new Poll(InstantSource.system(), Duration.ofMillis(500)).until(() -> {
                try {
                    locate.get().filter(u -> !u.equals(master.base())).ifPresent(u -> master = client(u));
                    answer[0] = withToken(call);
                    return true;
                } catch (ApiException again) {
                    if (!again.transientFailure()) {
                        throw again;
                    }
                    return false;
                }
            }, FOLLOW);
            if (!back) {
                throw e;
            }
            @SuppressWarnings("unchecked")
            T t = (T) answer[0];
            return t;
        }
    }

    /** A master that does not answer, or refuses the token, is named as such, not mistaken for the scheduler. */
    private <T> T answered(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (ApiException e) {
            if (e.transientFailure()) {
                throw new ApiException(e.status(), who + " does not answer (" + e.getMessage() + "); is the instance "
                        + "still running?");
            }
            if (e.status() == 401) {
                throw new ApiException(401, who + " refused the call: " + e.getMessage(), e.field());
            }
            throw e;
        }
    }

    public MetricsReport metrics() {
        return read(m -> m.get("/metrics", MetricsReport.class));
    }
}
