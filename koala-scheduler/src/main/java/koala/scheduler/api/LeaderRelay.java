package koala.scheduler.api;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import koala.api.scheduler.SchedulerClient;
import koala.auth.Vouchers;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.RawBody;
import koala.http.Request;
import koala.http.Response;

/**
 * A standby's users' calls, passed on to the leader: the caller as the standby identified them (its
 * socket's kernel, or a token), vouched for on that one request ({@link Vouchers}); the leader's answer,
 * status and body, goes back as it came. A user or a program on a standby's host thus calls its own
 * host's scheduler, whichever host leads.
 *
 * <p>A call that surely did nothing there (no leader yet, the leader not reached) is refused with the
 * standby's 503, which callers retry; one the leader got but did not answer in time may have been done,
 * and is a 504 (a named request, retried, is done once).
 */
public final class LeaderRelay implements JsonHttpServer.Handler {
    /** Within a client's 30 s, so that the client hears the relay's own answer. */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(25);

    /** Headers passed on as they are, by their name in lower case: {@code X-Koala-Runner-Generation}, say. */
    static final String PASSED_ON = "x-koala-";

    private final Callers callers;
    private final String standby;
    private final Supplier<Optional<URI>> leader;
    private final Supplier<String> refusal;
    private final HttpClient http;

    /**
     * @param standby this standby's name, which the leader's audit log gives
     * @param leader  where the leader serves, as the lease says; empty while none leads
     * @param refusal the standby's refusal, naming who leads
     */
    public LeaderRelay(Callers callers, String standby, Supplier<Optional<URI>> leader, Supplier<String> refusal) {
        this.callers = callers;
        this.standby = standby;
        this.leader = leader;
        this.refusal = refusal;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();
    }

    @Override
    public Response handle(Request r) {
        if (r.header(Vouchers.HEADER).isPresent()) { // a standby's call reached another standby: no chains
            throw new ApiException(503, refusal.get());
        }
        Caller caller = callers.identified(r);
        URI to = leader.get().orElseThrow(() -> new ApiException(503, refusal.get()));
        HttpRequest.Builder request = toLeader(r, to).header(Vouchers.HEADER, callers.vouch(caller, r, standby));
        try {
            HttpResponse<byte[]> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(answer.statusCode(), new RawBody(answer.headers().firstValue("Content-Type")
                    .orElse("application/json"), answer.body()));
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new ApiException(503, refusal.get() + "; it does not answer at " + to + " (" + e + "): ask again shortly");
        } catch (HttpTimeoutException e) {
            throw new ApiException(504, "the leading scheduler at " + to + " did not answer within "
                    + ANSWER_WITHIN.toSeconds() + " s; what was asked may have been done");
        } catch (IOException e) {
            throw new ApiException(504, "the call to the leading scheduler at " + to + " broke off (" + e
                    + "); what was asked may have been done");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "this standby is stopping");
        }
    }

    /** {@code r} as the leader at {@code to} is to get it: its method, path, query, body and the headers that count. */
    private static HttpRequest.Builder toLeader(Request r, URI to) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(to.toString().replaceAll("/+$", "")
                + pathAndQuery(r))).timeout(ANSWER_WITHIN).method(r.method(), r.body().length == 0
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(r.body()));
        r.header("Content-Type").ifPresent(v -> request.header("Content-Type", v));
        r.header("Accept").ifPresent(v -> request.header("Accept", v));
        r.header(SchedulerClient.ACT_FOR).map(String::strip).filter(v -> !v.isEmpty())
                .ifPresent(v -> request.header(SchedulerClient.ACT_FOR, v));
        // what KOALA's own callers say of themselves (a framework runner's generation) counts at the leader too
        r.headers().forEach((name, value) -> {
            if (name.startsWith(PASSED_ON)) {
                request.header(name, value);
            }
        });
        return request;
    }

    private static String pathAndQuery(Request r) {
        String path = r.path().startsWith("/") ? r.path() : "/" + r.path();
        if (r.query().isEmpty()) {
            return path;
        }
        return path + "?" + r.query().entrySet().stream().map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
