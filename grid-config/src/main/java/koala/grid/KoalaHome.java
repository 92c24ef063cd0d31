package koala.grid;

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

    /**
     * What KOALA's other accounts must read — the published jars and class archives, the DRMAA
     * library link, and the pilots' directories of a site without a shared one — beside
     * {@code koalaHome}, which is closed to them ({@link #closeUp}): {@code /var/lib/koala-shared}.
     */
    public static Path shared(Path koalaHome) {
        return koalaHome.toAbsolutePath().resolveSibling(koalaHome.getFileName() + "-shared");
    }

    /**
     * Closes {@code koalaHome} and its logs to everyone but their owner (0700): the database, the
     * token key, the audit and agent logs are KOALA's alone. Not done to a directory of someone
     * else's.
     */
    public static void closeUp(Path koalaHome) throws java.io.IOException {
        java.nio.file.attribute.FileAttribute<?> closed = java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        for (Path dir : java.util.List.of(koalaHome, koalaHome.resolve("logs"))) {
            java.nio.file.Files.createDirectories(dir, closed);
            if (java.nio.file.Files.getOwner(dir).getName().equals(System.getProperty("user.name"))) {
                java.nio.file.Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            }
        }
    }

    /**
     * Makes {@code dir} and each missing parent readable by this account only (0700), as a user's
     * {@code ~/.koala} must be: it holds the runners' state with their instances' tokens, and an
     * agent's secret. A directory that exists is left as it is.
     */
    public static Path createPrivate(Path dir) throws java.io.IOException {
        return java.nio.file.Files.createDirectories(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
    }

    public static Path logs() {
        return dir().resolve("logs");
    }
}
