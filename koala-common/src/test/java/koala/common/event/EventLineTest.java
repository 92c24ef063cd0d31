package koala.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventLineTest {
    private static final Instant T = Instant.parse("2026-11-21T14:00:10.250Z");

    @Test
    void anEventIsOneJsonLineWithItsOwnFieldsFirstAndTheOthersByName() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("role", "worker");
        fields.put("nodes", List.of("9.2.0", "9.2.1"));
        fields.put("count", 2);
        fields.put("site", null);
        EventLine grow = new EventLine(T, "GROW", "grow 2 workers [9.2.0, 9.2.1]: \"grow\" request", fields);
        assertThat(grow.json()).isEqualTo("{\"time\":\"2026-11-21T14:00:10.250Z\",\"kind\":\"GROW\",\"text\":"
                + "\"grow 2 workers [9.2.0, 9.2.1]: \\\"grow\\\" request\",\"count\":2,\"nodes\":[\"9.2.0\",\"9.2.1\"],"
                + "\"role\":\"worker\"}");
        assertThat(grow.readable(ZoneOffset.UTC)).isEqualTo("14:00:10 grow 2 workers [9.2.0, 9.2.1]: \"grow\" request");
    }

    @Test
    void aLineReadsBackAsTheSameEventAndOtherLinesAreSkipped() {
        EventLine lost = new EventLine(T, "LOST", "worker 9.2.0 lost: its heartbeats stopped",
                Map.of("node", "9.2.0", "role", "worker", "seconds", 2.5));
        EventLine back = EventLine.parse(lost.json()).orElseThrow();
        assertThat(back.time()).isEqualTo(T);
        assertThat(back.kind()).isEqualTo("LOST");
        assertThat(back.text()).isEqualTo("worker 9.2.0 lost: its heartbeats stopped");
        assertThat(back.string("node")).contains("9.2.0");
        assertThat(back.number("seconds")).contains(2.5);
        assertThat(back.strings("nodes")).isEmpty();
        assertThat(EventLine.parse("2026-11-21 14:00:10.000 INFO  [main] FrameworkRunner - started")).isEmpty();
        assertThat(EventLine.parse("READY 9 http://127.0.0.1:35409")).isEmpty();
        assertThat(EventLine.parse("{\"time\":\"2026-11-21T14:00:10Z\",\"kind\":\"GROW\"")).isEmpty();
        assertThat(EventLine.parse("{\"time\":\"yesterday\",\"kind\":\"GROW\",\"text\":\"\"}")).isEmpty();
        assertThat(EventLine.parse("{\"kind\":\"GROW\",\"text\":\"no time\"}")).isEmpty();
    }
}
