package koala.http;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The file of a Unix domain socket endpoint. A socket file gets its mode from the process umask
 * when it is bound, so setting the mode afterwards would leave a moment when others may connect.
 * Instead the socket is bound inside a fresh directory only this user can enter, given its mode
 * there and then renamed into place: it is never reachable with any other mode. A stale socket
 * file (nobody listening) at the path is removed first; a live one, or a file that is not a
 * socket, is left alone and the server refuses to start.
 */
final class UnixSocketFile {
    /** The kernel's limit on a socket path (sun_path), less the staging directory's 11 bytes. */
    private static final int MAX_PATH = 107 - 11;

    private final Endpoint.Unix endpoint;
    private final Path staging;
    private Object published;

    private UnixSocketFile(Endpoint.Unix endpoint, Path staging) {
        this.endpoint = endpoint;
        this.staging = staging;
    }

    static UnixSocketFile prepare(Endpoint.Unix endpoint) throws IOException {
        Path path = endpoint.path();
        if (path.toString().getBytes(StandardCharsets.UTF_8).length > MAX_PATH) {
            throw new IOException("unix socket path " + path + " is too long: at most " + MAX_PATH + " bytes");
        }
        removeStale(path);
        Files.createDirectories(path.getParent());
        return new UnixSocketFile(endpoint, stagingDirectory(path.getParent()));
    }

    /** Where Jetty binds the socket before it is published. */
    Path bindPath() {
        return staging.resolve("s");
    }

    /** Gives the bound socket its mode and moves it to the endpoint's path. */
    void publish() throws IOException {
        Files.setPosixFilePermissions(bindPath(), endpoint.mode());
        Files.move(bindPath(), endpoint.path(), StandardCopyOption.ATOMIC_MOVE);
        Files.deleteIfExists(staging);
        published = attributes(endpoint.path()).fileKey();
    }

    /** Removes the socket file, unless another server has put its own there since. */
    void remove() {
        try {
            Files.deleteIfExists(bindPath());
            Files.deleteIfExists(staging);
            if (published != null && Files.exists(endpoint.path(), LinkOption.NOFOLLOW_LINKS)
                    && Objects.equals(published, attributes(endpoint.path()).fileKey())) {
                Files.delete(endpoint.path());
            }
        } catch (IOException e) {
            // the process is stopping; a socket file left behind is removed as stale next time
        }
    }

    private static void removeStale(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!attributes(path).isOther()) {
            throw new IOException(path + " exists and is not a socket; not removing it");
        }
        if (listening(path)) {
            throw new IOException("another server is listening on " + path);
        }
        Files.delete(path); // nobody answers: left behind by a server that died
    }

    private static boolean listening(Path path) {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    private static Path stagingDirectory(Path parent) throws IOException {
        SecureRandom random = new SecureRandom();
        while (true) {
            Path dir = parent.resolve(".k" + HexFormat.of().toHexDigits((byte) random.nextInt())
                    + HexFormat.of().toHexDigits((short) random.nextInt()));
            try {
                return Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException taken) {
                // another server staging in the same directory: draw again
            }
        }
    }

    private static BasicFileAttributes attributes(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }
}
