package koala.grid;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The DRMAA Java binding of a site and what its native library needs to load.
 *
 * @param jar     the binding's jar ({@code org.ggf.drmaa}), taken from the SGE installation
 * @param library the native {@code libdrmaa.so.*} it calls through JNI
 * @param preload a library to put in {@code LD_PRELOAD}; Debian's libdrmaa pulls in jemalloc, which
 *                cannot be loaded late into a JVM ("cannot allocate memory in static TLS block")
 */
public record DrmaaInstall(Path jar, Path library, Optional<Path> preload) {
    public static final Path DEBIAN_JAR = Path.of("/usr/share/java/drmaa.jar");
    public static final Path DEBIAN_LIBRARY = Path.of("/usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0");
    public static final Path DEBIAN_JEMALLOC = Path.of("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");

    public static DrmaaInstall debian() {
        return new DrmaaInstall(DEBIAN_JAR, DEBIAN_LIBRARY, Optional.of(DEBIAN_JEMALLOC));
    }
}
