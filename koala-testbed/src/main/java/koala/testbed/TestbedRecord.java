package koala.testbed;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import koala.common.json.Json;

/**
 * What {@code testbed up} brought up, kept in {@code KOALA_HOME/testbed/testbed.json}: the KOALA
 * host's name and the plan, so that {@code down} and {@code status} find exactly those hosts and
 * cells. A record of the single-host testbed that came before reads with no {@code plan}.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TestbedRecord(String host, TestbedPlan plan) {
    static Path file(Path koalaHome) {
        return koalaHome.resolve("testbed").resolve("testbed.json");
    }

    static TestbedRecord read(Path koalaHome) {
        Path file = file(koalaHome);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return Json.mapper().readValue(file.toFile(), TestbedRecord.class);
        } catch (IOException e) {
            throw new TestbedException(file + ": unreadable testbed record: " + e.getMessage());
        }
    }

    void write(Path koalaHome) {
        try {
            Files.createDirectories(file(koalaHome).getParent());
            Files.writeString(file(koalaHome), Json.pretty(this));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<CellPlan> cells() {
        return plan == null ? List.of() : plan.cells();
    }
}
