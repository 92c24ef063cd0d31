package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.common.event.EventLine;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.MetricsSample;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import koala.sim.RunMetrics;
import org.junit.jupiter.api.Test;

/** The testbed experiment's figures, from logs and samples, as worked examples. */
class TestbedFiguresTest {
    private static final Instant T0 = Instant.parse("2026-11-21T14:00:00Z");

    /** The runner's log: its events as JSON lines among other lines, which are skipped. */
    private static final List<String> RUNNER = List.of(
            "2026-11-21 13:59:50.000 INFO  [main] FrameworkRunner - registering instance 9 (ondemand)",
            event(-10, "NOTE", "registered instance 9 (ondemand)", Map.of()),
            "READY 9 http://127.0.0.1:35409",
            event(9, "GROW", "grow 2 workers [9.2.0, 9.2.1]: grow request: grow 2 as requested: 2 workers after, "
                    + "F_max 20", Map.of("role", "worker", "count", 2, "nodes", List.of("9.2.0", "9.2.1"))),
            event(9, "GROW", "grow 1 orchestrator [9.9.0]: an instance keeps one orchestrator node",
                    Map.of("role", "orchestrator", "count", 1, "nodes", List.of("9.9.0"))),
            event(40, "GROW", "grow 1 worker [9.3.0]: grow request: grow 1 of 3 requested: F_max 20 leaves room for 1",
                    Map.of("role", "worker", "count", 1, "nodes", List.of("9.3.0"))),
            event(50, "RELEASE", "release [9.2.0]: release 9.2.0: idle since 14:00:31, 18.2 s >= t_idle 18 s",
                    Map.of("nodes", List.of("9.2.0"))),
            event(90, "ENDED", "instance ends: its allocation is FINISHED", Map.of("state", "ENDED")),
            event(95, "FUTURE_KIND", "a kind this reader does not know", Map.of()));
    /** The master's events.log. */
    private static final List<String> EVENTS = List.of(
            event(8.9, "NOTE", "j1: ask to grow 2: job j1 lacks 2 workers of 1 slot", Map.of()),
            event(13, "JOINED", "worker 9.2.0 joined (1 slots) at http://vm:36411",
                    Map.of("node", "9.2.0", "slots", 1, "url", "http://vm:36411")),
            event(14, "JOINED", "worker 9.2.1 joined (1 slots) at http://vm:43007",
                    Map.of("node", "9.2.1", "slots", 1, "url", "http://vm:43007")),
            event(15, "JOINED", "worker 7.1.0 joined (1 slots) at http://vm:43008", Map.of("node", "7.1.0")));

    private static String event(double second, String kind, String text, Map<String, Object> fields) {
        return new EventLine(T0.plusMillis(Math.round(second * 1000)), kind, text, fields).json();
    }

    @Test
    void theLogsGiveEachWorkersRequestJoinAndRelease() {
        TestbedLogs.Parsed p = TestbedLogs.parse(RUNNER, EVENTS);
        // a grow is stamped with its request; 9.3.0 never joined; the orchestrator node is no worker
        assertThat(p.workers()).containsExactly(
                new TestbedLogs.WorkerSpan("9.2.0", T0.plusSeconds(9), T0.plusSeconds(13), T0.plusSeconds(50)),
                new TestbedLogs.WorkerSpan("9.2.1", T0.plusSeconds(9), T0.plusSeconds(14), T0.plusSeconds(90)),
                new TestbedLogs.WorkerSpan("9.3.0", T0.plusSeconds(40), null, T0.plusSeconds(90)));
        assertThat(p.grows()).extracting(TestbedLogs.Grow::at).containsExactly(T0.plusSeconds(9), T0.plusSeconds(40));
    }

    @Test
    void aLostWorkerIsReleasedWhenItIsLost() {
        List<String> runner = List.of(event(0, "GROW", "grow 1 worker [9.2.0]: grow request",
                Map.of("role", "worker", "count", 1, "nodes", List.of("9.2.0"))),
                event(30, "LOST", "worker 9.2.0 lost: its entity exited with status 1",
                        Map.of("node", "9.2.0", "role", "worker")));
        assertThat(TestbedLogs.parse(runner, List.of()).workers()).containsExactly(
                new TestbedLogs.WorkerSpan("9.2.0", T0, null, T0.plusSeconds(30)));
    }

    @Test
    void allocationAndGrowTimesAreClippedToTheWindow() {
        TestbedLogs.Parsed p = TestbedLogs.parse(RUNNER, EVENTS);
        Instant from = T0.plusSeconds(5);
        Instant to = T0.plusSeconds(60);
        // 9.2.0 held 9..50 s: 41; 9.2.1 held 9..60 (window end): 51; 9.3.0 held 40..60: 20
        assertThat(p.allocatedSeconds(from, to)).isEqualTo(112);
        // request to joined: 4 s and 5 s; 9.3.0 never joined: held for nothing to the window's end, 20 s
        assertThat(p.growTimes(from, to)).containsExactly(4.0, 5.0, 20.0);
        assertThat(p.growsIn(from, to)).hasSize(2);
        // a window that starts after the first grow counts neither its node-time before nor its grow time
        assertThat(p.growTimes(T0.plusSeconds(20), to)).containsExactly(20.0);
        assertThat(p.allocatedSeconds(T0.plusSeconds(20), to)).isEqualTo(30 + 40 + 20);
    }

    @Test
    void busyIdleAndCpuFromTheMastersCountersAndTheRlsResults() {
        double[] busyIdle = TestbedFigures.busyIdleBetween(Map.of("a", new double[] {10, 5}),
                Map.of("a", new double[] {40, 15}, "b", new double[] {20, 2}));
        assertThat(busyIdle).containsExactly(50, 12);
        AppReply done = new AppReply("b1.1", "rl", "PLACED", "FINISHED", List.of("a"), null, null,
                Map.of("meanLoadPercent", 8, "seconds", 30.2));
        AppReply rejected = new AppReply("b1.2", "rl", "REJECTED", "REJECTED", List.of(), null, "no idle worker", null);
        AppReply running = new AppReply("b2.1", "rl", "PLACED", "RUNNING", List.of("b"), null, null, null);
        assertThat(TestbedFigures.cpuPercentSeconds(List.of(done, rejected, running))).isCloseTo(241.6, within(1e-9));
    }

    @Test
    void theFiguresAreTheSimulatorsOverTheHeldNodeTime() {
        // 200 node-s held, 150 busy, 30 idle, 20 starting; 10 applications, 2 rejected; RLs used 1200 %·s
        TestbedFigures f = new TestbedFigures("ondemand", 10, 2, new double[] {150, 30}, 1200, 200, 20, 3, 12,
                List.of(new RunMetrics.Point(0, 0, 0, 0), new RunMetrics.Point(4, 2, 1, 0.1)));
        RunMetrics m = f.metrics();
        assertThat(m.rejectPercent()).isEqualTo(20);
        assertThat(m.busyUtilization()).isEqualTo(75);
        assertThat(m.idleFraction()).isEqualTo(15);
        assertThat(m.cpuUtilization()).isEqualTo(6);
        assertThat(m.growOverheadFraction()).isEqualTo(10);
        assertThat(m.growOverheadHours() * 3600).isCloseTo(20, within(1e-9));
        assertThat(m.meanWaitSeconds()).isEqualTo(1.2);
        assertThat(m.grows()).isEqualTo(3);
    }

    @Test
    void theMastersSamplesInTheWindowBecomeTheSeries() {
        MetricsSample before = sample(T0.minusSeconds(1), 2, 0, 1.0);
        MetricsSample in = sample(T0.plusSeconds(4), 4, 3, 7.5);
        MetricsSample after = sample(T0.plusSeconds(70), 1, 0, 0.5);
        assertThat(TestbedFigures.series(List.of(before, in, after), T0, T0.plusSeconds(60)))
                .containsExactly(new RunMetrics.Point(4, 4, 3, 0.3));
    }

    @Test
    void theAllocatedSeriesGapComparesEachRealSampleWithTheLatestSimulatedOne() {
        List<RunMetrics.Point> real = List.of(point(0, 0), point(4.2, 3), point(8.1, 5));
        List<RunMetrics.Point> sim = List.of(point(0, 0), point(4, 2), point(8, 6));
        // |0-0| + |3-2| + |5-6| over 3 samples
        assertThat(TestbedReport.seriesGap(real, sim)).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(GrowBenchCommand.median(List.of(3.0, 1.0, 2.0, 10.0))).isEqualTo(2.5);
    }

    @Test
    void theSetupCompressesThePapersTimesAndScalesItsCpuThresholds() {
        TestbedSetup s = new TestbedSetup(10, 20, 20, 2, 0.1);
        // t_idle = n · 30 s / 10: 6 · 3 = 18 s OnDemand, 2 · 3 = 6 s Proactive; samples every 40 / 10 = 4 s
        assertThat(s.tIdle(PolicyKind.ONDEMAND)).isEqualTo(Duration.ofSeconds(18));
        assertThat(s.tIdle(PolicyKind.PROACTIVE)).isEqualTo(Duration.ofSeconds(6));
        assertThat(s.samplePeriod()).isEqualTo(Duration.ofSeconds(4));
        assertThat(s.workload().cpu().spec()).isEqualTo("uniform:5:10");
        assertThat(s.workload().rlDuration()).isEqualTo(Duration.ofSeconds(300));
        ProvisioningSettings p = s.settings(PolicyKind.PROACTIVE);
        assertThat(p.uMin()).isCloseTo(4, within(1e-9));
        assertThat(p.uMax()).isCloseTo(5, within(1e-9));
        assertThat(p.initialWorkers()).isEqualTo(2);
        assertThat(s.initialWorkers(PolicyKind.STATIC)).isEqualTo(20);
        assertThat(s.initialWorkers(PolicyKind.ONDEMAND)).isZero();
        assertThat(s.jdfAttributes(PolicyKind.ONDEMAND, 1))
                .isEqualTo("(tIdle = 18)(samplePeriod = 4)(uMin = 4)(uMax = 5)(reserve = 50)(pool = 8)");
        // the real runner's CPU is a share of the host's cores: on 2 cores, 4% of a core is 2%
        assertThat(s.jdfAttributes(PolicyKind.PROACTIVE, 2))
                .isEqualTo("(tIdle = 6)(samplePeriod = 4)(uMin = 2)(uMax = 2.50)(reserve = 50)(pool = 8)");
    }

    private static MetricsSample sample(Instant at, int allocated, int busy, double cpu) {
        return new MetricsSample(at, allocated, busy, cpu, 0, 0, 0, 0, 0, 0);
    }

    private static RunMetrics.Point point(double seconds, int allocated) {
        return new RunMetrics.Point(seconds, allocated, 0, 0);
    }
}
