package koala.fluent.master;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import koala.common.json.Json;
import koala.common.time.Poll;

/**
 * The master's journal as a file of JSON lines, {@code DIR/master.journal}, in a directory of the
 * instance's that every node sees (its log directory), so that a master restarted on another node
 * reads it. The directory is 0700 and the files 0600: the journal holds the instance's jobs and
 * results, for its owner alone. Each append is forced to disk before it returns (written entries, at
 * the next {@link #force}: the master forces a batch at once, {@link JournalLine}); a last line cut
 * short by a crash is dropped on reading (nothing was promised on it). A compaction writes the
 * snapshot to a new file, forces it, and renames it over the journal.
 *
 * <p>One master writes at a time: it holds an exclusive lock on {@code DIR/lock} while it runs, and
 * a new master waits for it (up to {@code lockWait}), so an old master still alive somewhere
 * cannot write behind its successor.
 */
final class FileJournal implements Journal {
    static final String FILE = "master.journal";
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    /** Snapshots carry records with is-methods (Worker.isIdle): read what the entry's components say, no more. */
    private static final ObjectMapper MAPPER = Json.mapper().copy()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path dir;
    private final Path file;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private FileChannel out;
    private int since;

    private FileJournal(Path dir, FileChannel lockChannel, FileLock lock) throws IOException {
        this.dir = dir;
        this.file = dir.resolve(FILE);
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.out = append(file);
    }

    /** Opens (or makes) the journal in {@code dir}, once no other master holds it; waits at most {@code lockWait}. */
    static FileJournal open(Path dir, Duration lockWait, Poll poll) {
        try {
            privateDirectory(dir);
            FileChannel channel = FileChannel.open(privateFile(dir.resolve("lock")), StandardOpenOption.WRITE);
            FileLock[] held = new FileLock[1];
            poll.until(() -> {
                try {
                    held[0] = channel.tryLock();
                    return held[0] != null;
                } catch (java.nio.channels.OverlappingFileLockException e) {
                    return false; // held in this very JVM
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, lockWait);
            if (held[0] == null) {
                channel.close();
                throw new IllegalStateException("the journal in " + dir + " is held by another master for more than "
                        + lockWait.toSeconds() + " s: is the old master still running?");
            }
            return new FileJournal(dir, channel, held[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the journal in " + dir, e);
        }
    }

    @Override
    public synchronized List<JournalEntry> read() {
        try {
            List<String> lines = Files.readAllLines(file);
            List<JournalEntry> entries = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).isBlank()) {
                    continue;
                }
                try {
                    entries.add(MAPPER.readValue(lines.get(i), JournalEntry.class));
                } catch (JsonProcessingException e) {
                    if (i < lines.size() - 1) {
                        throw new IllegalStateException(file + ":" + (i + 1) + ": not a journal entry: "
                                + e.getOriginalMessage(), e);
                    }
                    // the last line, cut short by a crash while it was written: nothing was promised on it
                }
            }
            return entries;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @Override
    public synchronized void write(JournalEntry entry) {
        try {
            write(out, line(entry));
            since++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    @Override
    public synchronized void force() {
        try {
            out.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    @Override
    public synchronized void compact(JournalEntry.Snapshot snapshot) {
        Path next = dir.resolve(FILE + ".next");
        try {
            Files.deleteIfExists(next);
            try (FileChannel channel = FileChannel.open(privateFile(next), StandardOpenOption.WRITE)) {
                write(channel, line(snapshot));
                channel.force(true);
            }
            out.close();
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true); // the rename itself survives a crash
            }
            out = append(file);
            since = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact " + file, e);
        }
    }

    @Override
    public synchronized int sinceCompaction() {
        return since;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            // closing: the lock goes with the process anyway
        }
    }

    private static String line(JournalEntry entry) throws JsonProcessingException {
        return MAPPER.writeValueAsString(entry) + "\n";
    }

    private static void write(FileChannel channel, String text) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    private static FileChannel append(Path file) throws IOException {
        return FileChannel.open(privateFile(file), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /** The directory, made 0700 (an existing one closed to others); never through a symbolic link. */
    private static void privateDirectory(Path dir) throws IOException {
        if (Files.isSymbolicLink(dir)) {
            throw new IOException(dir + " is a symbolic link; the journal is written only to a real directory");
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir.getParent());
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
        }
        Files.setPosixFilePermissions(dir, DIR_MODE);
    }

    /** The file, made 0600 if new (and closed to others if not); never through a symbolic link. */
    private static Path privateFile(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new IOException(file + " is a symbolic link; the journal is written only to a real file");
        }
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_MODE));
        }
        Files.setPosixFilePermissions(file, FILE_MODE);
        return file;
    }
}
