package koala.fluent.master;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Response;

/**
 * The master's HTTP/JSON API. For clients: {@code POST /jobs?wait=S} (answers once the job is
 * placed, or after S seconds, 5 by default, with 202 and why it still waits), {@code GET /jobs/{id}}, {@code GET /status},
 * {@code GET /metrics}. For DeviceManagers: {@code POST /devices} (answered with the key the
 * master signs its commands to them with), {@code POST /apps/{id}/done}. Every call needs the
 * instance's token as {@code Authorization: Bearer TOKEN} (401 otherwise, and nothing changes):
 * the master listens on its node's address, which every host of the grid reaches. A bad request is
 * a 400 naming the field and changes nothing.
 */
final class MasterApi {
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);
    static final Duration MAX_WAIT = Duration.ofSeconds(30);
    static final String TOKEN = "the instance's token";
    static final String DEVICE_TOKEN = "the instance's DeviceManager token";

    private final FrameworkManager master;
    private final java.util.function.Supplier<Secret> token;
    private final Secret key;
    private final java.util.function.Supplier<Secret> devices;

    /** A master whose DeviceManagers present the instance's token, as its clients do. */
    MasterApi(FrameworkManager master, Secret token, Secret key) {
        this(master, fixed(token), key);
    }

    private MasterApi(FrameworkManager master, java.util.function.Supplier<Secret> token, Secret key) {
        this(master, token, key, token);
    }

    private static java.util.function.Supplier<Secret> fixed(Secret secret) {
        return () -> secret;
    }

    MasterApi(FrameworkManager master, Secret token, Secret key, Secret devices) {
        this(master, () -> token, key, () -> devices);
    }

    /**
     * @param token   the instance's secret in force (its runner replaces it), which its runner gave every
     *                entity and its submitter
     * @param key     the master's own, handed in answer to a DeviceManager's hello
     * @param devices what a DeviceManager presents to say hello and report: a secret the runner gives
     *                the instance's entities only ({@code KOALA_DEVICE_TOKEN}), never its clients, so
     *                that a client cannot pose as a DeviceManager and learn the master's key
     */
    MasterApi(FrameworkManager master, java.util.function.Supplier<Secret> token, Secret key,
              java.util.function.Supplier<Secret> devices) {
        this.master = master;
        this.token = token;
        this.key = key;
        this.devices = devices;
    }

    void routes(JsonHttpServer server) {
        server.route("POST", "/jobs", guarded(r -> placed(r.body(JobRequest.class),
                        wait(r.queryParam("wait").orElse(null)))))
                .route("GET", "/jobs/{id}", guarded(r -> Response.ok(master.job(r.param("id")))))
                .route("GET", "/status", guarded(r -> Response.ok(master.status())))
                .route("GET", "/metrics", guarded(r -> Response.ok(master.metrics())))
                .route("POST", "/devices", fromDevices(r -> {
                    master.device(r.body(DeviceHello.class));
                    return Response.ok(new DeviceWelcome(true, key.value()));
                }))
                .route("POST", "/apps/{app}/done", fromDevices(r -> {
                    master.done(r.param("app"), r.body(AppDone.class));
                    return Response.ok(java.util.Map.of("app", r.param("app")));
                }));
    }

    private JsonHttpServer.Handler guarded(JsonHttpServer.Handler handler) {
        return Secret.required(token, TOKEN, handler);
    }

    private JsonHttpServer.Handler fromDevices(JsonHttpServer.Handler handler) {
        return Secret.required(devices, devices == token ? TOKEN : DEVICE_TOKEN, handler);
    }

    /**
     * Answers with the placed job (200) or, when it is not placed within {@code wait} (it waits for
     * a grow, or behind jobs that do), with its id and why it waits (202); the client then polls
     * {@code GET /jobs/{id}}. No request holds a thread for long: DeviceManagers' reports must get in.
     */
    private Response placed(JobRequest job, Duration wait) {
        FrameworkManager.Submitted submitted = master.submit(job);
        try {
            return Response.ok(submitted.reply().get(wait.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            return Response.accepted(master.job(submitted.job()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted");
        } catch (ExecutionException e) {
            throw new ApiException(500, "placing the job failed: " + e.getCause());
        }
    }

    private static Duration wait(String seconds) {
        if (seconds == null) {
            return DEFAULT_WAIT;
        }
        try {
            long s = Long.parseLong(seconds);
            if (s >= 0 && s <= MAX_WAIT.toSeconds()) {
                return Duration.ofSeconds(s);
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ApiException.badRequest("wait", "'" + seconds + "': seconds, 0.." + MAX_WAIT.toSeconds());
    }
}