package koala.api.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client of two schedulers, a standby on the first address and the leader on the second: it
 * reaches the leader at once, stays with it, and goes back to the first when the leader is gone and
 * the first leads; an answer that may have been given is not asked of another.
 */
class FollowingTest {
    private final List<JsonHttpServer> servers = new java.util.ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(JsonHttpServer::close);
    }

    private JsonHttpServer standby() throws Exception {
        JsonHttpServer s = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        s.guard("tcp", r -> {
            throw new ApiException(503, SchedulerClient.STANDBY + "; the scheduler leading this grid is b at http://b");
        });
        s.start();
        servers.add(s);
        return s;
    }

    private JsonHttpServer leader(AtomicInteger asked, int status) throws Exception {
        JsonHttpServer s = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        s.route("GET", "/jobs", r -> {
            asked.incrementAndGet();
            if (status != 200) {
                throw new ApiException(status, "no answer in time");
            }
            return Response.ok(List.of());
        });
        s.start();
        servers.add(s);
        return s;
    }

    private static URI at(JsonHttpServer s) {
        return URI.create("http://127.0.0.1:" + s.port());
    }

    @Test
    void aStandbysRefusalSendsTheCallToTheLeaderAtOnceAndTheClientStaysThere() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        JsonHttpServer a = standby();
        JsonHttpServer b = leader(asked, 200);
        SchedulerClient client = SchedulerClient.following(List.of(at(a), at(b)));

        assertThat(client.jobs()).isEmpty();
        assertThat(client.jobs()).isEmpty();

        assertThat(asked).hasValue(2);
        assertThat(client.base()).isEqualTo(at(b));
    }

    @Test
    void aLeaderThatIsGoneSendsTheCallToTheNext() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        JsonHttpServer gone = leader(new AtomicInteger(), 200);
        URI goneAt = at(gone);
        gone.close();
        JsonHttpServer b = leader(asked, 200);

        assertThat(SchedulerClient.following(List.of(goneAt, at(b))).jobs()).isEmpty();
        assertThat(asked).hasValue(1);
    }

    @Test
    void aCallThatMayHaveBeenDoneIsNotAskedOfAnother() throws Exception {
        AtomicInteger slow = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        JsonHttpServer a = leader(slow, 504);
        JsonHttpServer b = leader(other, 200);
        SchedulerClient client = SchedulerClient.following(List.of(at(a), at(b)));

        assertThatThrownBy(client::jobs).isInstanceOf(ApiException.class).hasMessageContaining("no answer in time");
        assertThat(other).hasValue(0);
        assertThat(client.jobs()).as("the next call goes to the next scheduler").isEmpty();
        assertThat(other).hasValue(1);
    }

    /** The leader gone and the standby not leading yet: the call waits for the take-over and is answered by the new leader. */
    @Test
    void aCallDuringATakeOverIsAnsweredOnceTheStandbyLeads() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        JsonHttpServer a = standby();
        int later = koala.common.net.FreePort.any();
        java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            timer.schedule(() -> {
                a.close();
                JsonHttpServer b = new JsonHttpServer(new InetSocketAddress("127.0.0.1", later), 2);
                b.route("GET", "/jobs", r -> {
                    asked.incrementAndGet();
                    return Response.ok(List.of());
                });
                b.start();
                servers.add(b);
                return null;
            }, 1500, java.util.concurrent.TimeUnit.MILLISECONDS);
            SchedulerClient client = SchedulerClient.following(List.of(at(a), URI.create("http://127.0.0.1:" + later)));

            assertThat(client.jobs()).isEmpty();
            assertThat(asked).hasValue(1);
        } finally {
            timer.shutdownNow();
        }
    }
}
