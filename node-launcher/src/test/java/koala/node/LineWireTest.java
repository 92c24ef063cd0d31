package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Startup;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.NodeTask;
import koala.common.json.Json;
import koala.common.json.PlainJson;
import org.junit.jupiter.api.Test;

/** The launcher's plain JSON says what the scheduler's and the runner's Jackson read, and reads what they write. */
class LineWireTest {
    @Test
    void anArrivalReportIsWhatTheSchedulerReads() throws Exception {
        NodeReport report = new NodeReport("s3cr3t", "fs0-n3", null);
        assertThat(Json.mapper().readValue(PlainJson.write(SchedulerLine.fields(report)), NodeReport.class)).isEqualTo(report);
        NodeReport exit = new NodeReport("s3cr3t", "fs0-n3", 137);
        assertThat(Json.mapper().readValue(PlainJson.write(SchedulerLine.fields(exit)), NodeReport.class)).isEqualTo(exit);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aTaskIsReadAsTheSchedulerWroteIt() {
        NodeTask task = new NodeTask("RUN", "${KOALA_JAVA}", List.of("-cp", "${KOALA_CLASSPATH}", "koala.fluent.device.DeviceMain"),
                Map.of("KOALA_RUNNER_URL", "http://koala-host:40001", "KOALA_RUNNER_TOKEN", "t"), "/home/alice",
                "/home/alice/w.out", null, 5400L);
        assertThat(SchedulerLine.task((Map<String, Object>) PlainJson.read(Json.write(task)))).isEqualTo(task);
        assertThat(SchedulerLine.task((Map<String, Object>) PlainJson.read(Json.write(NodeTask.waiting()))))
                .isEqualTo(NodeTask.waiting());
    }

    @Test
    void aHelloWithItsStartupStepsIsWhatTheRunnerReads() throws Exception {
        Instant t = Instant.parse("2026-11-23T09:40:36.153123456Z");
        Hello hello = new Hello("fs0", "fs0-n3", 40123, 4242, new Startup(t, t.plusMillis(95), t.plusMillis(180),
                t.plusMillis(183), t.plusMillis(205), null));
        assertThat(Json.mapper().readValue(PlainJson.write(RunnerLine.fields(hello)), Hello.class)).isEqualTo(hello);
        Hello bare = new Hello("fs2", "fs2-n1", 1, 2);
        assertThat(Json.mapper().readValue(PlainJson.write(RunnerLine.fields(bare)), Hello.class)).isEqualTo(bare);
    }
}
