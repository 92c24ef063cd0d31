package koala.grid;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Local accounts as the password database describes them. A grid's local sites share their users'
 * home directories with their compute nodes, as clusters do: the one place on this machine that a
 * pilot running as that user also sees.
 */
public final class Accounts {
    private Accounts() {
    }

    /** The home directory of {@code account}, from {@code /etc/passwd}. */
    public static Optional<Path> home(String account) {
        try {
            return Files.readAllLines(Path.of("/etc/passwd")).stream().map(l -> l.split(":"))
                    .filter(f -> f.length >= 6 && f[0].equals(account)).map(f -> Path.of(f[5])).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * A directory in {@code account}'s home, made when missing, owned by that account and closed to
     * others (0750): where KOALA puts what that account's pilots must read or write on any local site.
     */
    public static Path directoryOf(String account, String name) {
        Path home = home(account).orElseThrow(() -> new ConfigException("no account " + account + " on this machine"));
        Path dir = home.resolve(name);
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
            if ("root".equals(System.getProperty("user.name"))) {
                Files.setOwner(dir, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(account));
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
    }
}
