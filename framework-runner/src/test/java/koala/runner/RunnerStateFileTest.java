package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.provisioning.GrowOverhead;
import koala.provisioning.WorkerLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's durable state, as worked examples: what one runner writes, the one started in its
 * place reads back to the same book, the same t_idle timers and the same O_grow.
 */
class StateFileTest {
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");
    private static final Duration PERIOD = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void aStateIsReadBackAsWrittenFromAFileOnlyItsOwnerReadsWithNothingLeftBeside() throws Exception {
        RunnerStateFile file = RunnerStateFile.of(dir, 31);
        RunnerState state = state(book(List.of(
                new RunnerState.Saved("31.0.0", "master", "fs1", "RUNNING", T, "fs1-n1", 41000, 10_000, T.plusSeconds(2),
                        0, null, false),
                new RunnerState.Saved("31.2.0", "worker", "fs1", "RUNNING", T.plusSeconds(5), "fs1-n2", 41001, 10_000,
                        null, 0, null, true),
                new RunnerState.Saved("31.3.0", "worker", null, "STARTING", T.plusSeconds(40), null, 0, 0, null, 0,
                        null, false)),
                new RunnerState.InFlight("g-7", "worker", 2, "grow request: 2 workers", T.plusSeconds(41), 0, "rpc-9", 2)));

        file.write(state);
        file.write(state); // over the first: renamed over it

        assertThat(file.path()).hasFileName("runner-31.json");
        assertThat(file.read()).isEqualTo(state);
        assertThat(Files.getPosixFilePermissions(file.path())).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file.path());
        }
        // what the CLI and the RPC's users read
        String json = Files.readString(file.path());
        assertThat(json).contains("\"url\":\"http://10.0.0.1:41234\"").contains("\"token\":\"t0ken\"");
    }

    /**
     * A runner started in another's place (generation 2, on another host seeing the same file) writes the
     * state; the one it replaced (generation 1), waking up, may not write over it, and learns so.
     */
    @Test
    void aRunnerNeverWritesOverTheStateOfALaterGeneration() throws Exception {
        RunnerStateFile file = RunnerStateFile.of(dir, 31);
        RunnerState later = state(book(List.of(), null));
        assertThat(file.write(later)).isTrue();
        RunnerState earlier = new RunnerState(later.instance(), "http://10.0.0.9:1", later.token(), 99, later.launch(),
                later.book(), 1);
        assertThat(file.write(earlier)).isFalse();
        assertThat(file.read()).isEqualTo(later);
        assertThat(file.generation()).isEqualTo(2);
        assertThat(RunnerStateFile.of(dir, 32).generation()).as("no file yet").isZero();
    }

    @Test
    void entitiesComeBackWithTheirIdleSinceAndOriginsAndEachRunningOneHeardFromTheRestart() {
        Entities before = new Entities();
        before.starting(List.of("31.2.0", "31.2.1", "31.2.2"), Entities.WORKER, T, 0);
        before.put(before.get("31.2.0").orElseThrow().reportedIn("fs1", "n1", 4000, PERIOD, T.plusSeconds(3)));
        before.put(before.get("31.2.1").orElseThrow().reportedIn("fs1", "n2", 4000, PERIOD, T.plusSeconds(4)));
        // 31.2.0 idle since its report-in at T+3; 31.2.1 busy by its CPU at T+14; 31.2.2 still starting
        before.beat(before.get("31.2.1").orElseThrow(), 80, PERIOD, T.plusSeconds(14));
        before.activity(before.get("31.2.0").orElseThrow(), false, T.plusSeconds(6), T.plusSeconds(16));

        Entities after = new Entities();
        Instant restart = T.plusSeconds(60);
        after.restore(before.saved(), restart);

        assertThat(after.saved()).isEqualTo(before.saved());
        assertThat(after.get("31.2.0").orElseThrow().idleSince()).isEqualTo(T.plusSeconds(6));
        assertThat(after.get("31.2.1").orElseThrow().idleSince()).isNull();
        assertThat(after.get("31.2.2").orElseThrow().running()).isFalse();
        // heard from at the restart: silent only two periods (20 s) after it
        assertThat(after.silent(restart.plusSeconds(19))).isEmpty();
        assertThat(after.silent(restart.plusSeconds(20))).extracting(Entity::node).containsExactly("31.2.0", "31.2.1");
        // the framework's word still counts for 31.2.0: a 90% beat leaves it idle since T+6
        after.beat(after.get("31.2.0").orElseThrow(), 90, PERIOD, restart.plusSeconds(10));
        assertThat(after.get("31.2.0").orElseThrow().idleSince()).isEqualTo(T.plusSeconds(6));
        WorkerLayer layer = after.workerLayer(-1, Duration.ofSeconds(30));
        assertThat(layer.starting()).isEqualTo(1);
    }

    @Test
    void oGrowIsTheSameMedianAfterTheSamplesAreRecordedAgain() {
        GrowOverhead before = new GrowOverhead();
        // fs1: 4, 9, 6 s -> median 6 s; fs0: 20, 2 s -> (2 + 20) / 2 = 11 s
        before.record("fs1", Duration.ofSeconds(4));
        before.record("fs0", Duration.ofSeconds(20));
        before.record("fs1", Duration.ofSeconds(9));
        before.record("fs0", Duration.ofSeconds(2));
        before.record("fs1", Duration.ofSeconds(6));

        GrowOverhead after = new GrowOverhead();
        before.recent().forEach((site, grows) -> grows.forEach(g -> after.record(site, g)));

        assertThat(before.recent()).isEqualTo(Map.of("fs0", List.of(Duration.ofSeconds(20), Duration.ofSeconds(2)),
                "fs1", List.of(Duration.ofSeconds(4), Duration.ofSeconds(9), Duration.ofSeconds(6))));
        assertThat(after.estimate("fs1")).isEqualTo(Duration.ofSeconds(6));
        assertThat(after.estimate("fs0")).isEqualTo(Duration.ofSeconds(11));
    }

    private static RunnerState.Book book(List<RunnerState.Saved> entities, RunnerState.InFlight inFlight) {
        return new RunnerState.Book("RUNNING", true, "fs1-n1:41000", "fs1", T.plusSeconds(50), entities,
                Map.of("fs1", List.of(1200L, 900L)), inFlight,
                Map.of("rpc-8", new RunnerState.Answer(3, 1, List.of("31.2.0"), "F_max 3 leaves room for 1")),
                List.of("10:00:00 registered instance 31 (ondemand)", "10:00:41 grow 1 worker [31.3.0]: grow request"));
    }

    private static RunnerState state(RunnerState.Book book) {
        return new RunnerState(31, "http://10.0.0.1:41234", "t0ken", 4242, new RunnerState.Launch(
                "unix:/run/koala/scheduler.sock", "it.jdf", "+( &(jobType = framework) )", "/etc/koala/grid.properties",
                "d3vice", 120, 180, "/usr/lib/jvm/java-17/bin/java", "/opt/koala/lib/a.jar:/opt/koala/lib/b.jar", "alice"), book, 2);
    }
}
