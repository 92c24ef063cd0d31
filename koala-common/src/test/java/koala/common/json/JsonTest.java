package koala.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import org.junit.jupiter.api.Test;

/** The shared mapper takes values as they are typed and converts none. */
class JsonTest {
    record Sizes(int nodes, double share, boolean idle, Long since) {
    }

    @Test
    void valuesOfTheirOwnTypeAreRead() throws Exception {
        assertThat(read("{\"nodes\": 2, \"share\": 0.5, \"idle\": true, \"since\": 17}"))
                .isEqualTo(new Sizes(2, 0.5, true, 17L));
        // a whole number is a fine fraction
        assertThat(read("{\"nodes\": 2, \"share\": 1, \"idle\": false}")).isEqualTo(new Sizes(2, 1.0, false, null));
    }

    @Test
    void noValueIsCoerced() {
        assertRefused("{\"nodes\": 1.5}", "nodes");
        assertRefused("{\"nodes\": \"2\"}", "nodes");
        assertRefused("{\"share\": \"0.5\"}", "share");
        assertRefused("{\"idle\": \"true\"}", "idle");
        assertRefused("{\"idle\": 1}", "idle");
        assertRefused("{\"since\": 1.0}", "since");
    }

    private static Sizes read(String json) throws Exception {
        return Json.mapper().readValue(json, Sizes.class);
    }

    private static void assertRefused(String json, String field) {
        assertThatThrownBy(() -> read(json)).isInstanceOfSatisfying(MismatchedInputException.class,
                e -> assertThat(e.getPath().get(0).getFieldName()).isEqualTo(field));
    }
}
