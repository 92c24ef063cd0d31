package koala.fjm.planted;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;

/** What the FrameworkJobManager must never do, planted for {@code FjmPurityTest} to find. */
final class PlantedViolations {
    private PlantedViolations() {
    }

    static Instant clockRead() {
        return Instant.now();
    }

    static boolean database(Connection db) throws java.sql.SQLException {
        return db.isValid(1);
    }

    static boolean file(Path p) {
        return Files.exists(p);
    }
}
