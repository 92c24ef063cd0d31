package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import koala.api.runner.RunnerMessages.Exit;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.scheduler.NodeTask;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An entity whose runner answers its exit with RESTART is started again on the same node and port, and says hello again. */
class EntityRunTest {
    @Test
    void anEntityTheRunnerRestartsRunsAgainOnItsPortAndReportsEachExit() throws Exception {
        List<Integer> ports = new CopyOnWriteArrayList<>();
        List<Integer> exits = new CopyOnWriteArrayList<>();
        JsonHttpServer runner = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        runner.route("POST", "/nodes/{node}/hello", r -> {
            ports.add(r.body(Hello.class).port());
            return Response.ok(new Orders(100, 60_000));
        }).route("POST", "/nodes/{node}/heartbeat", r -> Response.ok(new HeartbeatReply(HeartbeatReply.KEEP, 100)))
                .route("POST", "/nodes/{node}/exit", r -> {
                    exits.add(r.body(Exit.class).status());
                    // the first exit is restarted, the second is not (as a runner gives up a master)
                    return Response.ok(new HeartbeatReply(exits.size() == 1 ? HeartbeatReply.RESTART
                            : HeartbeatReply.STOP, 0));
                });
        runner.start();
        try {
            NodeTask task = new NodeTask("RUN", "/bin/sh", List.of("-c", "exit 3"),
                    Map.of("KOALA_RUNNER_URL", "http://127.0.0.1:" + runner.port(), "KOALA_RUNNER_TOKEN", "t"),
                    null, null, null, null);

            int status = new EntityRun(task, "7.0.0", "127.0.0.1", 1, InstantSource.system(), null).run();

            assertThat(status).isEqualTo(3);
            assertThat(exits).containsExactly(3, 3);
            assertThat(ports).hasSize(2);
            assertThat(ports.get(1)).as("the same port: nothing listened there any more").isEqualTo(ports.get(0));
        } finally {
            runner.close();
        }
    }

    /** A framework component's stdout and stderr: the entity's output goes there, appended to at each start. */
    @Test
    void anEntitysOutputGoesToItsComponentsFilesAppendedAtEachStart(@TempDir Path dir) throws Exception {
        List<Integer> exits = new CopyOnWriteArrayList<>();
        JsonHttpServer runner = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        runner.route("POST", "/nodes/{node}/hello", r -> Response.ok(new Orders(100, 60_000)))
                .route("POST", "/nodes/{node}/heartbeat", r -> Response.ok(new HeartbeatReply(HeartbeatReply.KEEP, 100)))
                .route("POST", "/nodes/{node}/exit", r -> {
                    exits.add(r.body(Exit.class).status());
                    return Response.ok(new HeartbeatReply(exits.size() == 1 ? HeartbeatReply.RESTART
                            : HeartbeatReply.STOP, 0));
                });
        runner.start();
        try {
            Path out = dir.resolve("worker.out");
            Path err = dir.resolve("worker.err");
            NodeTask task = new NodeTask("RUN", "/bin/sh", List.of("-c", "echo started $KOALA_ROLE; echo oops >&2; exit 3"),
                    Map.of("KOALA_RUNNER_URL", "http://127.0.0.1:" + runner.port(), "KOALA_RUNNER_TOKEN", "t",
                            "KOALA_ROLE", "worker"), null, out.toString(), err.toString(), null);

            new EntityRun(task, "7.1.0", "127.0.0.1", 1, InstantSource.system(), null).run();

            // started twice (the runner restarted it once): two lines in each, the first kept
            assertThat(Files.readAllLines(out)).containsExactly("started worker", "started worker");
            assertThat(Files.readAllLines(err)).containsExactly("oops", "oops");
        } finally {
            runner.close();
        }
    }

    /**
     * The first hello presents the claim's token "t" and gets key "key-7"; every later call presents the
     * key. The runner replaces the token ("t2" in the second heartbeat's answer): the entity reads it in
     * its token file and writes what it read until it reads "t2"; the file is gone after the run.
     */
    @Test
    void aTokenTheRunnerReplacesReachesTheEntitysTokenFileThroughAHeartbeat(@TempDir Path dir) throws Exception {
        List<String> presented = new CopyOnWriteArrayList<>();
        List<Integer> beats = new CopyOnWriteArrayList<>();
        JsonHttpServer runner = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        runner.route("POST", "/nodes/{node}/hello", r -> {
            presented.add(r.header("Authorization").orElse("key " + r.header("X-Koala-Node-Key").orElse("")));
            return Response.ok(new Orders(100, 60_000, "key-7", "t"));
        }).route("POST", "/nodes/{node}/heartbeat", r -> {
            presented.add("key " + r.header("X-Koala-Node-Key").orElse("none"));
            beats.add(1);
            return Response.ok(new HeartbeatReply(HeartbeatReply.KEEP, 100, beats.size() >= 2 ? "t2" : "t"));
        }).route("POST", "/nodes/{node}/exit", r -> {
            presented.add("key " + r.header("X-Koala-Node-Key").orElse("none"));
            return Response.ok(new HeartbeatReply(HeartbeatReply.STOP, 0));
        });
        runner.start();
        try {
            Path seen = dir.resolve("seen");
            NodeTask task = new NodeTask("RUN", "/bin/sh", List.of("-c", "echo $KOALA_RUNNER_TOKEN_FILE > " + seen
                    + ".path; until [ \"$(cat $KOALA_RUNNER_TOKEN_FILE)\" = t2 ]; do sleep 0.05; done; "
                    + "cat $KOALA_RUNNER_TOKEN_FILE > " + seen),
                    Map.of("KOALA_RUNNER_URL", "http://127.0.0.1:" + runner.port(), "KOALA_RUNNER_TOKEN", "t"),
                    null, null, null, null);

            int status = new EntityRun(task, "7.2.0", "127.0.0.1", 1, InstantSource.system(), null).run();

            assertThat(status).isZero();
            assertThat(seen).hasContent("t2");
            assertThat(presented.get(0)).isEqualTo("Bearer t");
            assertThat(presented.subList(1, presented.size())).containsOnly("key key-7");
            Path tokenFile = Path.of(Files.readString(dir.resolve("seen.path")).strip());
            assertThat(tokenFile.getParent()).doesNotExist();
        } finally {
            runner.close();
        }
    }

    /**
     * The runner at A beats with the launcher, then goes (its host cut off); the scheduler names B, a runner
     * started elsewhere in A's place. At the first beat that finds A silent {@link EntityRun#ASK_EVERY} (5 s) into
     * the beating, the launcher asks the scheduler, beats to B with the node's key from then on, and writes B's address into the entity's
     * file; B answers STOP once the entity has read B's address there (it copies its file at each turn of its loop).
     */
    @Test
    void aSilentRunnerIsFollowedToTheAddressTheSchedulerNamesAndTheEntityIsToldToo(@TempDir Path dir) throws Exception {
        List<Integer> beatsAtA = new CopyOnWriteArrayList<>();
        List<String> keysAtB = new CopyOnWriteArrayList<>();
        JsonHttpServer a = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        a.route("POST", "/nodes/{node}/hello", r -> Response.ok(new Orders(100, 60_000, "key-7", "t")))
                .route("POST", "/nodes/{node}/heartbeat", r -> {
                    beatsAtA.add(1);
                    return Response.ok(new HeartbeatReply(HeartbeatReply.KEEP, 100));
                });
        Path seen = dir.resolve("seen");
        JsonHttpServer b = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        b.route("POST", "/nodes/{node}/heartbeat", r -> {
            keysAtB.add(r.header("X-Koala-Node-Key").orElse("none"));
            String read = addressIn(seen);
            boolean told = read.startsWith("http://127.0.0.1:") && !read.equals("http://127.0.0.1:" + a.port());
            return Response.ok(new HeartbeatReply(told ? HeartbeatReply.STOP : HeartbeatReply.KEEP, 100));
        });
        a.start();
        b.start();
        try {
            String atB = "http://127.0.0.1:" + b.port();
            NodeTask task = new NodeTask("RUN", "/bin/sh", List.of("-c", "while :; do cat \"$KOALA_RUNNER_URL_FILE\" > "
                    + seen + ".new && mv " + seen + ".new " + seen + "; sleep 0.05; done"),
                    Map.of("KOALA_RUNNER_URL", "http://127.0.0.1:" + a.port(), "KOALA_RUNNER_TOKEN", "t"),
                    null, null, null, null);
            List<Integer> asked = new CopyOnWriteArrayList<>();
            EntityRun run = new EntityRun(task, "7.3.0", "127.0.0.1", 1, InstantSource.system(), null, () -> {
                asked.add(1);
                return java.util.Optional.of(atB);
            });
            Thread cut = new Thread(() -> {
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> !beatsAtA.isEmpty());
                a.close();
            });
            cut.start();

            int status = run.run();
            cut.join();

            assertThat(status).isZero();
            assertThat(asked).as("asked once, at the first silent beat 5 s into the beating").hasSize(1);
            assertThat(keysAtB).isNotEmpty().containsOnly("key-7");
            assertThat(Files.readString(seen).strip()).isEqualTo(atB);
        } finally {
            a.close();
            b.close();
        }
    }

    /** What the entity last copied of its address file; empty before its first copy. */
    private static String addressIn(Path seen) {
        try {
            return Files.exists(seen) ? Files.readString(seen).strip() : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
