package koala.fluent.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.IntStream;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two DeviceManagers on loopback and a stand-in master that records what is done: real HTTP between
 * components. The stand-in takes the instance's token and answers a hello with its key; the
 * DeviceManagers read files under the test's directory only.
 */
class DeviceManagerTest {
    private static final Secret TOKEN = LoopbackDevices.TOKEN;
    private static final Secret KEY = LoopbackDevices.KEY;
    private LoopbackDevices devices;
    private String dm1;
    private String dm2;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        devices = new LoopbackDevices(dir);
        dm1 = devices.device("n1");
        dm2 = devices.device("n2");
    }

    @AfterEach
    void stop() {
        devices.close();
    }

    @Test
    void aWordCountSpreadOverTwoDeviceManagersCountsEveryWordOfTheFile() throws IOException {
        Path text = CountedText.write(dir);

        List<String> mappers = List.of(dm1, dm2, dm2, dm1);
        deploy(dm1, new Deploy("a.swc1", "counter", 0, 500, 5, 0, null, mappers, null));
        for (int m = 0; m < mappers.size(); m++) {
            deploy(mappers.get(m), new Deploy("a.swc1", "mapper", m, 500, 5, 0, null, List.of(), dm1));
        }
        deploy(dm2, new Deploy("a.swc1", "reader", 0, 500, 5, 0, text.toString(), mappers, null));

        CountedText.assertCounted(devices.done("a.swc1"), "n1");
    }

    @Test
    void anUnreadableFileFailsTheWordCountWithTheReason() {
        deploy(dm1, new Deploy("a.swc2", "counter", 0, 500, 5, 0, null, List.of(dm1), null));
        deploy(dm1, new Deploy("a.swc2", "mapper", 0, 500, 5, 0, null, List.of(), dm1));
        deploy(dm1, new Deploy("a.swc2", "reader", 0, 500, 5, 0, dir.resolve("gone.txt").toString(), List.of(dm1),
                null));
        assertThat(devices.done("a.swc2").error()).contains("cannot read").contains("gone.txt");
    }

    @Test
    void aVideoFilterRunsItsDurationFilteringFramesAndChangesItsLoadEachPeriod() {
        deploy(dm2, new Deploy("a.rl1", "rl", 0, 1500, 60, 500, null, List.of(), null));
        Map<String, Object> result = devices.done("a.rl1").result();
        assertThat(((Number) result.get("frames")).longValue()).isPositive();
        assertThat(((Number) result.get("loadChanges")).intValue()).isBetween(2, 3);
        assertThat(((Number) result.get("seconds")).doubleValue()).isBetween(1.5, 3.0);
    }

    @Test
    void aDeviceManagerTakesCommandsOnlyWithItsMastersKeyNotTheInstancesToken() throws IOException {
        Deploy counter = new Deploy("a.swc3", "counter", 0, 500, 5, 0, null, List.of(dm2), null);
        for (Secret other : List.of(TOKEN, new Secret("a-guess"))) {
            assertThatThrownBy(() -> signed(dm1, other).post("/components", counter, Map.class))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                    .hasMessage("the secret presented is not its master's key");
        }
        assertThatThrownBy(() -> new JsonHttpClient(URI.create(dm1), Duration.ofSeconds(5))
                .post("/apps/a.swc3/stop", Map.of(), Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessage("missing credentials: send Authorization: Bearer <its master's key>");
        assertThat(signed(dm1, KEY).get("/status", Map.class).get("counters")).as("nothing started").asList().isEmpty();

        deploy(dm1, counter);
        assertThat(signed(dm1, KEY).get("/status", Map.class).get("counters")).asList().containsExactly("a.swc3");

        // a DeviceManager whose hello no master has answered knows no key and lets nobody in
        String lonely = devices.unwelcomed("n3");
        assertThatThrownBy(() -> signed(lonely, KEY).post("/components", counter,
                Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessage("its master's key is not known here yet: nobody is let in");
    }

    @Test
    void aReaderReadsOnlyRegularFilesUnderItsRootsAfterResolvingLinks() throws IOException {
        Path outside = Files.createTempFile("koala-secret", ".txt");
        try {
            Files.write(outside, List.of("the pilot account's secret"));
            Path link = Files.createSymbolicLink(dir.resolve("innocent.txt"), outside);
            deploy(dm1, new Deploy("a.swc4", "counter", 0, 500, 5, 0, null, List.of(dm1), null));
            deploy(dm1, new Deploy("a.swc4", "mapper", 0, 500, 5, 0, null, List.of(), dm1));
            for (Path file : List.of(outside, link)) {
                assertThatThrownBy(() -> deploy(dm1, new Deploy("a.swc4", "reader", 0, 500, 5, 0, file.toString(),
                        List.of(dm1), null)))
                        .isInstanceOfSatisfying(ApiException.class, e -> {
                            assertThat(e.status()).isEqualTo(403);
                            assertThat(e.field()).isEqualTo("file");
                        })
                        .hasMessage("reader of a.swc4: " + outside.toRealPath() + " is outside the directories this "
                                + "DeviceManager reads from: " + dir);
            }
            assertThatThrownBy(() -> deploy(dm1, new Deploy("a.swc4", "reader", 0, 500, 5, 0, dir.toString(),
                    List.of(dm1), null)))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(403))
                    .hasMessage("reader of a.swc4: " + dir.toRealPath() + " is not a regular file");
            assertThat(signed(dm1, KEY).get("/status", Map.class).get("readers")).as("no reader started").asList()
                    .isEmpty();
            assertThat(devices.reported()).as("nothing was streamed, nothing counted").isEmpty();
        } finally {
            Files.deleteIfExists(outside);
        }
    }

    private static JsonHttpClient signed(String url, Secret secret) {
        return LoopbackDevices.signed(url, secret);
    }

    private void deploy(String url, Deploy d) {
        devices.deploy(url, d);
    }
}
