package koala.site;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;

/**
 * A pilot's secret handed over in a file rather than in its SGE job, whose environment and
 * arguments {@code qstat -j} shows every user: a new file (never through a symlink, never an old
 * one), mode 0600, in a directory this account owns and nobody else may write.
 */
final class SecretFiles {
    private SecretFiles() {
    }

    static void write(Path file, String secret) throws IOException {
        Path dir = file.getParent();
        PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String me = System.getProperty("user.name");
        if (!attributes.isDirectory() || !attributes.owner().getName().equals(me)) {
            throw new IOException(dir + " is not a directory of " + me + "'s");
        }
        if (attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
                || attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException(dir + " is writable by others (mode "
                    + PosixFilePermissions.toString(attributes.permissions()) + ")");
        }
        try (SeekableByteChannel out = Files.newByteChannel(file, EnumSet.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            out.write(ByteBuffer.wrap(secret.getBytes(StandardCharsets.US_ASCII)));
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // the pilot never ran; a stale token file names a node no one will claim
        }
    }
}
