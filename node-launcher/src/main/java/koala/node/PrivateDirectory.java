package koala.node;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * A new directory that only this user can open, for an entity's token or an MPI run's files. Not
 * {@code Files.createTempDirectory}: its random names come from a {@code SecureRandom}, whose first
 * use cost a launcher some 20 ms of a grow (the entity's start went from 36 to 18 ms on a Slurm node).
 * A name someone else took in a shared {@code /tmp} (a directory, a link) is never used: the directory
 * is made anew, or the next name is tried.
 */
final class PrivateDirectory {
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final int TRIES = 100;

    private PrivateDirectory() {
    }

    /** A new private directory in the JVM's temporary directory, its name starting with {@code prefix}. */
    static Path make(String prefix) throws IOException {
        return make(Path.of(System.getProperty("java.io.tmpdir")), prefix, System::nanoTime);
    }

    /** @param names the part of the name after the process id, drawn anew for each try */
    static Path make(Path parent, String prefix, LongSupplier names) throws IOException {
        long pid = ProcessHandle.current().pid();
        for (int tried = 1; ; tried++) {
            Path dir = parent.resolve(prefix + pid + "-" + Long.toHexString(names.getAsLong()));
            try {
                return Files.createDirectory(dir, OWNER_ONLY);
            } catch (FileAlreadyExistsException e) {
                if (tried == TRIES) {
                    throw e;
                }
            }
        }
    }
}
