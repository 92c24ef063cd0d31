package koala.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainJsonTest {
    @Test
    void readsObjectsArraysStringsNumbersBooleansAndNull() {
        Object value = PlainJson.read(" {\"action\": \"RUN\", \"arguments\": [\"-c\", \"echo \\\"hi\\\"\\n\"], "
                + "\"n\": 42, \"cpu\": 12.5, \"big\": 1e3, \"on\": true, \"off\": false, \"none\": null, \"env\": {}} ");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("action", "RUN");
        expected.put("arguments", List.of("-c", "echo \"hi\"\n"));
        expected.put("n", 42L);
        expected.put("cpu", 12.5);
        expected.put("big", 1000.0);
        expected.put("on", true);
        expected.put("off", false);
        expected.put("none", null);
        expected.put("env", Map.of());
        assertThat(value).isEqualTo(expected);
    }

    @Test
    void writesWhatJacksonWritesLeavingOutNullFields() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("token", "t\u0001\"\\/é");
        value.put("exitStatus", null);
        value.put("port", 40123);
        value.put("cpu", 0.25);
        value.put("at", Instant.parse("2026-11-23T09:40:36.153123Z"));
        value.put("list", Arrays.asList("a", null, 3L));
        assertThat(PlainJson.write(value)).isEqualTo(Json.write(value));
    }

    @Test
    void whatItWritesJacksonReadsBackAndTheOtherWayRound() throws Exception {
        String tricky = "tab\there, quote \" backslash \\ newline \n bell \u0007 snowman \u2603";
        Map<String, Object> value = Map.of("s", tricky, "list", List.of(1L, 2.5, true));
        assertThat(Json.mapper().readValue(PlainJson.write(value), Map.class)).isEqualTo(Map.of("s", tricky,
                "list", List.of(1, 2.5, true)));
        assertThat(PlainJson.read(Json.write(Map.of("s", tricky)))).isEqualTo(Map.of("s", tricky));
    }

    @Test
    void notJsonIsRefusedWithTheOffset() {
        assertThatThrownBy(() -> PlainJson.read("{\"a\": }")).hasMessage("not JSON at offset 6: a value expected");
        assertThatThrownBy(() -> PlainJson.read("{\"a\": 1} x")).hasMessage("not JSON at offset 9: text after the value");
        assertThatThrownBy(() -> PlainJson.read("[\"open")).hasMessage("not JSON at offset 6: an unterminated string");
        assertThatThrownBy(() -> PlainJson.read("{a: 1}")).hasMessage("not JSON at offset 1: a field name expected");
        assertThatThrownBy(() -> PlainJson.read("")).hasMessage("not JSON at offset 0: a value expected");
    }
}
