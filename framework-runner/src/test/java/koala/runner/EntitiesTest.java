package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import koala.api.runner.RunnerMessages;
import koala.provisioning.OrchestratorLayer;
import koala.provisioning.WorkerLayer;
import org.junit.jupiter.api.Test;

/** The runner's book of entities, as worked examples on a clock that starts at T. */
class EntitiesTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");
    private static final Duration PERIOD = Duration.ofSeconds(10);

    private final Entities entities = new Entities();

    @Test
    void aWorkerIsIdleFromReportingInUntilItUsesFivePercentCpuAndIdleAgainFromItsFirstQuietBeat() {
        entities.starting(List.of("7.2.0"), Entities.WORKER, T, 0);
        assertThat(entities.workerLayer(-1, Duration.ofSeconds(30)).starting()).isEqualTo(1);

        entities.put(entities.get("7.2.0").orElseThrow().reportedIn("fs0", "vm", 4000, PERIOD, T.plusSeconds(2)));
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).isEqualTo(T.plusSeconds(2));

        beat("7.2.0", 4.9, 12);
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).as("4.9% is idle").isEqualTo(T.plusSeconds(2));
        beat("7.2.0", 5.0, 22);
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).as("5% is busy").isNull();
        beat("7.2.0", 0.3, 32);
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).isEqualTo(T.plusSeconds(32));

        WorkerLayer layer = entities.workerLayer(3, Duration.ofSeconds(30));
        assertThat(layer.workers()).singleElement().satisfies(w -> {
            assertThat(w.busy()).isFalse();
            assertThat(w.cpuPercent()).isEqualTo(0.3);
        });
        assertThat(layer.gridFreeNodes()).hasValue(3);
    }

    @Test
    void onceTheFrameworkReportsAWorkersActivityItsWordBeatsTheCpu() {
        entities.starting(List.of("7.2.0"), Entities.WORKER, T, 0);
        entities.put(entities.get("7.2.0").orElseThrow().reportedIn("fs0", "vm", 4000, PERIOD, T.plusSeconds(2)));

        entities.activity(entities.get("7.2.0").orElseThrow(), true, T.plusSeconds(3), T.plusSeconds(3));
        beat("7.2.0", 0.1, 12);
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).as("busy by the framework at 0.1% CPU").isNull();

        entities.activity(entities.get("7.2.0").orElseThrow(), false, T.plusSeconds(14), T.plusSeconds(15));
        beat("7.2.0", 90, 22);
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).as("idle by the framework at 90% CPU")
                .isEqualTo(T.plusSeconds(14));

        entities.activity(entities.get("7.2.0").orElseThrow(), false, T.plusSeconds(99), T.plusSeconds(30));
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).as("a future instant is taken as now")
                .isEqualTo(T.plusSeconds(30));
        entities.activity(entities.get("7.2.0").orElseThrow(), false, T.minusSeconds(60), T.plusSeconds(31));
        assertThat(entities.get("7.2.0").orElseThrow().idleSince()).as("not before it was asked for")
                .isEqualTo(T);
    }

    @Test
    void anEntityIsSilentOnceTwoHeartbeatPeriodsPassWithoutABeat() {
        entities.starting(List.of("7.2.0", "7.2.1"), Entities.WORKER, T, 0);
        entities.put(entities.get("7.2.0").orElseThrow().reportedIn("fs0", "vm", 4000, PERIOD, T));
        assertThat(entities.silent(T.plusSeconds(19))).isEmpty();
        assertThat(entities.silent(T.plusSeconds(20))).extracting(Entity::node).containsExactly("7.2.0");
        beat("7.2.0", 0, 20);
        assertThat(entities.silent(T.plusSeconds(39))).as("7.2.1 is starting, not silent").isEmpty();
    }

    @Test
    void orchestratorNodesCountWhatTheyHostAndSinceWhenTheyAreEmpty() {
        entities.starting(List.of("7.1.0"), Entities.ORCHESTRATOR, T, 0);
        entities.starting(List.of("7.4.0"), Entities.ORCHESTRATOR, T.plusSeconds(5), 1);
        Entity first = entities.get("7.1.0").orElseThrow();
        entities.put(first.hosting(2, T.plusSeconds(10)));
        entities.put(entities.get("7.1.0").orElseThrow().hosting(0, T.plusSeconds(70)));

        OrchestratorLayer layer = entities.orchestratorLayer(Duration.ofSeconds(30));
        assertThat(layer.orchestrators()).isEqualTo(1);
        assertThat(layer.nodes()).extracting(n -> n.id() + ":" + n.orchestrators() + ":" + n.emptySince())
                .containsExactly("7.1.0:0:" + T.plusSeconds(70), "7.4.0:1:null");
    }

    @Test
    void theViewSaysWhenEachEntityWasLastHeardFrom() {
        entities.starting(List.of("7.2.0", "7.2.1"), Entities.WORKER, T, 0);
        entities.put(entities.get("7.2.0").orElseThrow().reportedIn("fs2", "vm", 4000, PERIOD, T.plusSeconds(2)));
        beat("7.2.0", 0.0, 12);

        assertThat(entities.views()).extracting(RunnerMessages.Entity::node, RunnerMessages.Entity::lastBeat)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("7.2.0", T.plusSeconds(12)),
                        org.assertj.core.groups.Tuple.tuple("7.2.1", null));
    }

    private void beat(String node, double cpu, long atSecond) {
        entities.beat(entities.get(node).orElseThrow(), cpu, PERIOD, T.plusSeconds(atSecond));
    }
}
