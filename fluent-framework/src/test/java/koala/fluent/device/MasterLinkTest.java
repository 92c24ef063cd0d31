package koala.fluent.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A DeviceManager's line across a master's restart, against stand-in masters on loopback: a report
 * made while no master answers is kept, the new master is found through the runner, hears what
 * runs here, and gets the report once.
 */
class MasterLinkTest {
    private static final Secret TOKEN = new Secret("instance-token");
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final List<JsonHttpServer> servers = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(JsonHttpServer::close);
    }

    @Test
    void aReportMadeWhileTheMasterIsAwayReachesTheNextMasterWhereverTheRunnerSaysItIs() throws IOException {
        JsonHttpServer old = master("old", 200);
        String[] located = {null};
        MasterLink link = new MasterLink(URI.create("http://127.0.0.1:" + old.port()), TOKEN, null,
                () -> Optional.ofNullable(located[0]));
        link.hello(new DeviceHello("w1", "http://w1", 4));
        old.close();

        link.done("j1.rl1", new AppDone("w1", Map.of("frames", 10), null));
        assertThat(link.undelivered()).containsExactly("j1.rl1");
        assertThat(link.beat(List.of("j1.swc1"))).as("no master, and the runner knows none yet").isFalse();

        JsonHttpServer next = master("new", 200);
        located[0] = "127.0.0.1:" + next.port();
        assertThat(link.beat(List.of("j1.swc1"))).as("moved to where the runner says").isFalse();
        assertThat(link.master()).isEqualTo(URI.create("http://127.0.0.1:" + next.port()));
        assertThat(link.beat(List.of("j1.swc1"))).isTrue();

        assertThat(heard).containsExactly("old hello w1 null", "new hello w1 [j1.swc1, j1.rl1]", "new done j1.rl1");
        assertThat(link.undelivered()).isEmpty();
        link.beat(List.of());
        assertThat(heard).as("delivered once").containsOnlyOnce("new done j1.rl1").endsWith("new hello w1 []");
    }

    @Test
    void aReportAMasterRefusesIsDroppedAndAWorkerThatLeftIsToldSo() throws IOException {
        JsonHttpServer master = master("m", 409);
        MasterLink link = new MasterLink(URI.create("http://127.0.0.1:" + master.port()), TOKEN, null, Optional::empty);
        link.hello(new DeviceHello("w1", "http://w1", 4));
        link.done("j1.rl1", new AppDone("w1", Map.of(), null));
        assertThat(link.undelivered()).isEmpty();


        // a master that says this worker left: final, the DeviceManager ends
        boolean[] welcomed = {false};
        JsonHttpServer after = server();
        after.route("POST", "/devices", r -> {
            if (welcomed[0]) {
                throw new ApiException(410, "worker w1 has left the instance", "node");
            }
            welcomed[0] = true;
            return Response.ok(new DeviceWelcome(true, "key"));
        });
        MasterLink released = new MasterLink(URI.create("http://127.0.0.1:" + after.port()), TOKEN, null,
                Optional::empty);
        assertThat(released.beat(List.of())).as("never said hello: nothing to say again").isFalse();
        released.hello(new DeviceHello("w1", "http://w1", 4));
        assertThatThrownBy(() -> released.beat(List.of())).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(410));
    }

    /** A stand-in master that answers hellos and takes reports with {@code doneStatus}. */
    private JsonHttpServer master(String name, int doneStatus) throws IOException {
        JsonHttpServer server = server();
        server.route("POST", "/devices", Secret.required(() -> TOKEN, "the instance's token", r -> {
            DeviceHello hello = r.body(DeviceHello.class);
            heard.add(name + " hello " + hello.node() + " " + hello.running());
            return Response.ok(new DeviceWelcome(true, "key"));
        })).route("POST", "/apps/{app}/done", Secret.required(() -> TOKEN, "the instance's token", r -> {
            if (doneStatus != 200) {
                throw new ApiException(doneStatus, r.param("app") + " is FINISHED, not running", "app");
            }
            heard.add(name + " done " + r.param("app"));
            return Response.ok(Map.of());
        }));
        return server;
    }

    private JsonHttpServer server() throws IOException {
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 4);
        servers.add(server);
        server.start();
        return server;
    }
}
