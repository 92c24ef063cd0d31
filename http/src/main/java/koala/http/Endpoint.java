package koala.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;

/**
 * One place a {@link JsonHttpServer} listens, with the name its requests carry
 * ({@link Request#endpoint()}): guards use the name to serve some routes only on some endpoints.
 */
public sealed interface Endpoint permits Endpoint.Tcp, Endpoint.Unix {
    /** The endpoint of servers built with the one-address constructor. */
    String DEFAULT = "tcp";

    String name();

    /** A TCP address; port 0 picks a free port ({@link JsonHttpServer#address(String)} tells which). */
    static Tcp tcp(String name, InetSocketAddress address) {
        return new Tcp(name, address);
    }

    /** The loopback interface only: reachable from this host, never from a compute node. */
    static Tcp loopback(String name, int port) {
        return new Tcp(name, new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    /** A Unix domain socket only its owner may connect to (mode {@code rw-------}). */
    static Unix unix(String name, Path path) {
        return new Unix(name, path, PosixFilePermissions.fromString("rw-------"));
    }

    /** A Unix domain socket with these permissions, e.g. {@code "rw-rw----"} for a group of users. */
    static Unix unix(String name, Path path, String mode) {
        return new Unix(name, path, PosixFilePermissions.fromString(mode));
    }

    record Tcp(String name, InetSocketAddress address) implements Endpoint {
        public Tcp {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(address, "address");
        }
    }

    /**
     * A Unix domain socket file. Connecting needs write permission on the file, so {@code mode}
     * decides who may call; the kernel then tells the server who did ({@link Request#peer()}).
     */
    record Unix(String name, Path path, Set<PosixFilePermission> mode) implements Endpoint {
        public Unix {
            Objects.requireNonNull(name, "name");
            path = path.toAbsolutePath();
            mode = Set.copyOf(mode);
        }
    }
}
