package koala.fluent.master;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import koala.common.http.ApiException;
import koala.common.http.JsonHttpServer;
import koala.common.http.Response;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobRequest;

/**
 * The master's HTTP/JSON API. For clients: {@code POST /jobs} (answers once the job is placed,
 * after the grow it waits for under OnDemand), {@code GET /jobs/{id}}, {@code GET /status},
 * {@code GET /metrics}. For DeviceManagers: {@code POST /devices}, {@code POST /apps/{id}/done}.
 * A bad request is a 400 naming the field and changes nothing.
 */
final class MasterApi {
    private final FrameworkManager master;
    private final Duration placeTimeout;

    MasterApi(FrameworkManager master, Duration growWait) {
        this.master = master;
        this.placeTimeout = growWait.plusSeconds(30);
    }

    void routes(JsonHttpServer server) {
        server.route("POST", "/jobs", r -> Response.ok(placed(r.body(JobRequest.class))))
                .route("GET", "/jobs/{id}", r -> Response.ok(master.job(r.param("id"))))
                .route("GET", "/status", r -> Response.ok(master.status()))
                .route("GET", "/metrics", r -> Response.ok(master.metrics()))
                .route("POST", "/devices", r -> {
                    master.device(r.body(DeviceHello.class));
                    return Response.ok(java.util.Map.of("joined", true));
                })
                .route("POST", "/apps/{app}/done", r -> {
                    master.done(r.param("app"), r.body(AppDone.class));
                    return Response.ok(java.util.Map.of("app", r.param("app")));
                });
    }

    private Object placed(JobRequest job) {
        try {
            return master.submit(job).get(placeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ApiException(504, "the job was not placed within " + placeTimeout.toSeconds() + " s; "
                    + "see GET /status");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted");
        } catch (ExecutionException e) {
            throw new ApiException(500, "placing the job failed: " + e.getCause());
        }
    }
}
