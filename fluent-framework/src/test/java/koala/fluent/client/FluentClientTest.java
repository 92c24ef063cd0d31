package koala.fluent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.Test;

/** A client found through the FJM follows a restarted master to its new address; a fixed one does not. */
class FluentClientTest {
    @Test
    void aReadThatFindsNoMasterAsksWhereItIsNowAndTriesThere() throws IOException {
        JsonHttpServer old = master("old");
        URI oldUrl = URI.create("http://127.0.0.1:" + old.port());
        AtomicReference<URI> registered = new AtomicReference<>(oldUrl);
        FluentClient followed = new FluentClient(oldUrl, "t", "the master of instance 7", () ->
                Optional.of(registered.get()));
        FluentClient fixed = new FluentClient(oldUrl, "t");
        assertThat(followed.job("j1").grow()).isEqualTo("old");
        old.close();

        JsonHttpServer moved = master("new");
        try {
            registered.set(URI.create("http://127.0.0.1:" + moved.port()));
            assertThat(followed.job("j1").grow()).isEqualTo("new");
            assertThat(followed.url()).isEqualTo(registered.get());
            assertThatThrownBy(() -> fixed.job("j1")).isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.status()).isEqualTo(503));
        } finally {
            moved.close();
        }
    }

    /** A stand-in master whose every job reply names it. */
    private static JsonHttpServer master(String name) throws IOException {
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        server.route("GET", "/jobs/{id}", r -> Response.ok(new JobReply(r.param("id"), List.of(), name)));
        server.start();
        return server;
    }
}
