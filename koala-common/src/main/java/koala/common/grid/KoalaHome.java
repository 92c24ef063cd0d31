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
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path own = dir().resolve("grid.properties");
        return java.nio.file.Files.exists(own) || !java.nio.file.Files.exists(SYSTEM_CONFIG) ? own : SYSTEM_CONFIG;
    }

    /**
     * The grid's configuration as every user of the head node reads it (mode 0644; it holds no
     * secret): used when neither {@code KOALA_CONFIG} nor {@code KOALA_HOME/grid.properties} is there.
     */
    public static final Path SYSTEM_CONFIG = Path.of("/etc/koala/grid.properties");

    public static Path logs() {
        return dir().resolve("logs");
    }
}
