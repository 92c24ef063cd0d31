package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import koala.common.json.Json;

/**
 * What {@code testbed up} brought up, kept in {@code KOALA_HOME/testbed/testbed.json}: the plan and
 * the process ids of the daemons it started, so that {@code down} stops exactly those.
 */
public record TestbedRecord(String host, List<CellPlan> cells, Map<String, List<Long>> daemons) {
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
}
