package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.common.event.EventLine;
import org.junit.jupiter.api.Test;

class EventsTest {
    private static final Instant T = Instant.parse("2026-11-21T14:00:09Z");

    @Test
    void eachEventIsOneJsonLineWithTheInstanceAndItsTextIsKeptForStatus() {
        List<String> lines = new ArrayList<>();
        Events events = new Events(lines::add);
        events.instance(9);
        events.add(T, EventKind.GROW, "grow 2 workers [9.2.0, 9.2.1]: grow request",
                Map.of("role", "worker", "count", 2, "nodes", List.of("9.2.0", "9.2.1")));
        events.add(T.plusSeconds(1), "registered instance 9 (ondemand)");
        assertThat(lines).containsExactly(
                "{\"time\":\"2026-11-21T14:00:09Z\",\"kind\":\"GROW\",\"text\":\"grow 2 workers [9.2.0, 9.2.1]: grow "
                        + "request\",\"count\":2,\"instance\":9,\"nodes\":[\"9.2.0\",\"9.2.1\"],\"role\":\"worker\"}",
                "{\"time\":\"2026-11-21T14:00:10Z\",\"kind\":\"NOTE\",\"text\":\"registered instance 9 (ondemand)\","
                        + "\"instance\":9}");
        EventLine grow = EventLine.parse(lines.get(0)).orElseThrow();
        assertThat(grow.strings("nodes")).containsExactly("9.2.0", "9.2.1");
        String clock = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault()).format(T);
        assertThat(events.recent().get(0)).isEqualTo(clock + " grow 2 workers [9.2.0, 9.2.1]: grow request");
    }
}
