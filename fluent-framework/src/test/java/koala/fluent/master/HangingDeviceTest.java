package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DeviceManager that does not answer holds up nothing but its own calls. Static, 4 slots a worker,
 * --suspend 3: word counts (n = 1, 4 components) fill w1 and w2. The first RL finds no idle worker and
 * suspends the word count on one of them, whose DeviceManager hangs on the call (as one behind a cut
 * link does, until its 20 s time-out); the second RL, submitted meanwhile, suspends the other word count
 * and is placed, and its component deployed, within a second or two: it waits for no call but its own.
 * The first RL's client hears once its component is in place, after the hanging call.
 */
class HangingDeviceTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");
    private static final AppRequest RL = new AppRequest("rl", 60_000L, 1.0, 10_000L, null, null);
    private static final Duration PROMPT = Duration.ofSeconds(2);

    private final FakeRunner fake = new FakeRunner("static", 20, Duration.ofSeconds(600));
    private final CountDownLatch hanging = new CountDownLatch(1);
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final MasterThreads threads = MasterThreads.threaded();
    private FrameworkManager master;
    private AppRequest swc;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        Path text = Files.write(dir.resolve("text.txt"), IntStream.range(0, 100).mapToObj(i -> "line " + i).toList());
        swc = new AppRequest("swc", 60_000L, null, null, 1, text.toString());
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(() -> T, metrics);
        master = new FrameworkManager(() -> T, fake, new Hanging(), events,
                new Provisioning(fake.status(), events, metrics, 4, 3), Duration.ofSeconds(60), Journal.memory(),
                threads);
    }

    @AfterEach
    void stop() {
        letGo.countDown();
        threads.close();
    }

    @Test
    void anRlIsPlacedAndStartedWhileADeviceManagerHangsOnAnotherRlsSuspension() throws Exception {
        for (String w : List.of("w1", "w2")) {
            master.device(new DeviceHello(w, "http://" + w, null));
        }
        for (int i = 0; i < 2; i++) {
            master.submit(new JobRequest("wc", List.of(swc))).reply().get(5, TimeUnit.SECONDS);
        }
        CompletableFuture<FrameworkManager.Submitted> first = CompletableFuture.supplyAsync(() -> master.submit(
                new JobRequest("first", List.of(RL))));
        assertThat(hanging.await(5, TimeUnit.SECONDS)).as("a suspension reached a DeviceManager that hangs").isTrue();

        JobReply second = assertTimeoutPreemptively(PROMPT, () -> master.submit(new JobRequest("second", List.of(RL)))
                .reply().get());
        AppReply rl = second.apps().get(0);
        assertThat(rl.verdict()).isEqualTo("PLACED");
        await().atMost(PROMPT).untilAsserted(() -> assertThat(calls).contains(rl.id() + " rl @http://"
                + rl.workers().get(0)));
        assertThat(calls).as("the first RL's component waits for its suspension").noneMatch(c -> c.startsWith("j3.rl1"));
        assertThat(first.get(5, TimeUnit.SECONDS).reply()).as("its client hears once its component is in place")
                .isNotDone();

        letGo.countDown();
        AppReply started = first.get().reply().get(5, TimeUnit.SECONDS).apps().get(0);
        assertThat(calls).as("deployed before its client heard").contains("j3.rl1 rl @http://" + started.workers().get(0));
    }

    /** The master's process lives as long as its loop: MasterMain returns once it has started it. */
    @Test
    void theLoopKeepsTheMastersProcessAlive() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Thread> loop = new java.util.concurrent.atomic.AtomicReference<>();
        threads.loop().post(() -> loop.set(Thread.currentThread()));
        await().atMost(PROMPT).until(() -> loop.get() != null);
        assertThat(loop.get().getName()).isEqualTo("fluent-master");
        assertThat(loop.get().isDaemon()).as("a daemon loop let the master's JVM exit with status 0 at once").isFalse();
    }

    /** DeviceManagers at http://w1 and http://w2 that take every call, but the first suspension hangs until the test ends. */
    private final class Hanging implements Devices {
        @Override
        public void deploy(String url, Deploy d) {
            calls.add(d.app() + " " + d.role() + " @" + url);
        }

        @Override
        public void stop(String url, String app) {
            calls.add("stop " + app + " @" + url);
        }

        @Override
        public void suspend(String url, String app) {
            calls.add("suspend " + app + " @" + url);
            if (hanging.getCount() > 0) {
                hanging.countDown();
                try {
                    letGo.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void resume(String url, String app) {
            calls.add("resume " + app + " @" + url);
        }
    }
}
