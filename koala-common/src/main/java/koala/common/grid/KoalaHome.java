package koala.common.grid;

import java.nio.file.Path;

/**
 * Where KOALA keeps its state on this machine: the grid configuration, the testbed's records, logs
 * and the runtime copy that other accounts run. {@code $KOALA_HOME}, else {@code /var/lib/koala}
 * for root and {@code ~/.koala} for anyone else.
 */
public final class KoalaHome {
    private KoalaHome() {
    }

    public static Path dir() {
        String env = System.getenv("KOALA_HOME");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return "root".equals(System.getProperty("user.name")) ? Path.of("/var/lib/koala")
                : Path.of(System.getProperty("user.home"), ".koala");
    }

    /** The grid configuration: {@code $KOALA_CONFIG}, else {@code grid.properties} in the home. */
    public static Path gridConfig() {
        String env = System.getenv("KOALA_CONFIG");
        return env != null && !env.isBlank() ? Path.of(env) : dir().resolve("grid.properties");
    }

    public static Path logs() {
        return dir().resolve("logs");
    }
}
