package koala.auth;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.function.Supplier;

/**
 * The scheduler's token key: 32 random bytes in a file only its owner reads (mode 0600, created
 * new, never through a symlink). {@link #get()} notices when the file was replaced and reads the
 * new key, so an admin rotates it — and every token issued so far stops working — without a
 * restart: {@code koala token rotate}, or any tool that replaces the file.
 */
public final class TokenKey implements Supplier<byte[]> {
    private static final int BYTES = 32;

    private final Path file;
    private byte[] key;
    /** The file's modification time and identity (inode) when read: a rotation replaces the file, so the identity
     *  changes even when it lands within the same tick of the file system's clock as the last write. */
    private FileTime readAt;
    private Object readFile;

    private TokenKey(Path file) {
        this.file = file;
    }

    /** The key in {@code file}, made first if there is none. */
    public static TokenKey in(Path file) throws IOException {
        TokenKey k = new TokenKey(file);
        if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                write(file, fresh());
            } catch (FileAlreadyExistsException raced) {
                // another process made it a moment ago: read theirs
            }
        }
        k.load();
        return k;
    }

    @Override
    public synchronized byte[] get() {
        try {
            java.nio.file.attribute.BasicFileAttributes now = Files.readAttributes(file,
                    java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (!now.lastModifiedTime().equals(readAt) || !java.util.Objects.equals(now.fileKey(), readFile)) {
                load();
            }
        } catch (IOException e) {
            // the file went away or is unreadable: keep the key we have rather than refuse everyone
        }
        return key.clone();
    }

    /** A new key in place of the old one: every token issued so far is refused from now on. */
    public synchronized void rotate() throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.deleteIfExists(next);
        write(next, fresh());
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        load();
    }

    private void load() throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new IOException(file + " is a symbolic link; the token key must be a plain file");
        }
        // the file's identity before its bytes: a rotation in between is seen at the next get()
        java.nio.file.attribute.BasicFileAttributes read = Files.readAttributes(file,
                java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length < BYTES) {
            throw new IOException(file + " holds " + bytes.length + " bytes; a token key needs " + BYTES);
        }
        if (!Files.getPosixFilePermissions(file).stream().allMatch(p -> p.name().startsWith("OWNER"))) {
            throw new IOException(file + " is readable by others (mode "
                    + PosixFilePermissions.toString(Files.getPosixFilePermissions(file)) + "); it must be 0600");
        }
        key = bytes;
        readAt = read.lastModifiedTime();
        readFile = read.fileKey();
    }

    private static byte[] fresh() {
        byte[] bytes = new byte[BYTES];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))),
                bytes, StandardOpenOption.WRITE);
    }
}
