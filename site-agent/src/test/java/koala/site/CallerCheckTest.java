package koala.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import koala.api.site.AgentSecret;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Request;
import koala.http.Response;
import org.junit.jupiter.api.Test;

class CallerCheckTest {
    private final AgentSecret secret = AgentSecret.random();
    private final CallerCheck check = new CallerCheck(secret);
    private final AtomicInteger handled = new AtomicInteger();
    private final JsonHttpServer.Handler guarded = check.guard(r -> {
        handled.incrementAndGet();
        return Response.ok("done");
    });

    private static Request request(Map<String, String> headers) {
        return new Request("POST", "/pilots", Map.of(), Map.of(), new byte[0], headers);
    }

    @Test
    void withoutTheHeaderOrWithAnotherSecretTheHandlerNeverRuns() {
        assertThatThrownBy(() -> guarded.handle(request(Map.of())))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThatThrownBy(() -> guarded.handle(request(Map.of("authorization", "Bearer " + AgentSecret.random().value()))))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThatThrownBy(() -> guarded.handle(request(Map.of("authorization", secret.value()))))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));

        assertThat(handled).hasValue(0);
        assertThat(check.admitted()).isZero();
    }

    @Test
    void withTheSecretTheHandlerRunsAndTheCallCounts() {
        assertThat(guarded.handle(request(Map.of("authorization", secret.authorization())))).isEqualTo(Response.ok("done"));

        assertThat(handled).hasValue(1);
        assertThat(check.admitted()).isEqualTo(1);
    }
}
