package koala.scheduler.accounting;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import koala.api.scheduler.AccountingView;
import koala.api.scheduler.UsageRecord;
import koala.common.json.Json;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The accounting file: one usage record per line, as JSON, appended and never rewritten, kept as
 * long as the admin keeps it (the scheduler's retention of ended jobs does not touch it). Made
 * 0600 (its directory 0700 when the scheduler makes it); an existing file keeps its mode.
 *
 * <p>Each append opens the file by its name, so a file rotated away (renamed, or truncated in
 * place) is followed: the next record goes to the new file. A line without its newline at the end
 * is a write cut short (a crash, a full disk): the next append drops it first, and readers never
 * see it. Appends come from one thread (the writer); reads from any, each with its own stream.
 */
public final class AccountingFile {
    private static final Logger LOG = LogManager.getLogger(AccountingFile.class);
    private static final ObjectReader READER = Json.mapper().readerFor(UsageRecord.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES); // a later version's fields are skipped

    private final Path path;

    public AccountingFile(Path path) {
        this.path = path.toAbsolutePath();
    }

    public Path path() {
        return path;
    }

    /** Appends these lines and forces them to disk; on a failure, what was written of them is taken back. */
    public void append(List<String> lines) throws IOException {
        boolean created = !Files.exists(path);
        if (created) {
            directory(path.getParent());
        }
        try (FileChannel file = FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            long end = completeLength(file);
            if (end < file.size()) {
                LOG.warn("accounting file {}: dropping {} bytes of a record cut short at its end (written again if it "
                        + "is still owed)", path, file.size() - end);
                file.truncate(end);
            }
            StringBuilder text = new StringBuilder();
            lines.forEach(l -> text.append(l).append('\n'));
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            try {
                file.position(end);
                while (bytes.hasRemaining()) {
                    file.write(bytes);
                }
                file.force(true);
            } catch (IOException e) {
                takeBack(file, end);
                throw e;
            }
        }
        if (created) {
            forceDirectory(path.getParent());
        }
    }

    /**
     * Which of {@code ids} have a record in the file. Asked by a scheduler that starts or takes over with
     * records to replay, while the file may hold years of records: each line's id is read from where this
     * class writes it, without parsing the line (parsing each took about 1 s of CPU per 10,000 records,
     * in the middle of a take-over).
     */
    public Set<Long> recorded(Set<Long> ids) throws IOException {
        Set<Long> found = new HashSet<>();
        lines(line -> {
            long id = idOf(line);
            if (ids.contains(id)) {
                found.add(id);
            }
        });
        return found;
    }

    private static final String ID_FIRST = "{\"id\":";

    /** The record's id: from the line's start as written ({"id":N,...}); a line written otherwise is parsed. */
    static long idOf(String line) {
        int end = ID_FIRST.length();
        if (line.startsWith(ID_FIRST)) {
            while (end < line.length() && Character.isDigit(line.charAt(end))) {
                end++;
            }
            if (end > ID_FIRST.length() && end < line.length() && (line.charAt(end) == ',' || line.charAt(end) == '}')) {
                return Long.parseLong(line, ID_FIRST.length(), end, 10);
            }
        }
        try {
            return Json.mapper().readTree(line).path("id").asLong(-1);
        } catch (IOException e) {
            return -1; // not a record: an admin's note, or damage; it holds no id
        }
    }

    /** The records that match, oldest first, at most {@code query.limit()} of them (the newest). */
    public AccountingView read(AccountingQuery query) throws IOException {
        ArrayDeque<UsageRecord> kept = new ArrayDeque<>();
        long[] leftOut = {0};
        long[] unreadable = {0};
        lines(line -> {
            UsageRecord r;
            try {
                r = READER.readValue(line);
            } catch (IOException e) {
                unreadable[0]++;
                return;
            }
            if (query.matches(r)) {
                kept.addLast(r);
                if (kept.size() > query.limit()) {
                    kept.removeFirst();
                    leftOut[0]++;
                }
            }
        });
        if (unreadable[0] > 0) {
            LOG.warn("accounting file {}: {} lines are not usage records; skipped", path, unreadable[0]);
        }
        return new AccountingView(List.copyOf(kept), leftOut[0]);
    }

    /** Every whole line of the file, in order; none if there is no file. */
    private void lines(Consumer<String> each) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream(1024);
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        line.write(buffer, from, i - from);
                        if (line.size() > 0) {
                            each.accept(line.toString(StandardCharsets.UTF_8));
                        }
                        line.reset();
                        from = i + 1;
                    }
                }
                line.write(buffer, from, n - from);
            }
            // what follows the last newline is a record being written, or one cut short: not a record yet
        } catch (NoSuchFileException e) {
            // nothing written yet
        }
    }

    /** The length of the file up to and with its last newline. */
    static long completeLength(FileChannel file) throws IOException {
        long size = file.size();
        ByteBuffer chunk = ByteBuffer.allocate(8192);
        for (long end = size; end > 0; ) {
            long start = Math.max(0, end - chunk.capacity());
            chunk.clear().limit((int) (end - start));
            while (chunk.hasRemaining() && file.read(chunk, start + chunk.position()) >= 0) {
                // a file read may return less than asked
            }
            for (int i = chunk.position() - 1; i >= 0; i--) {
                if (chunk.get(i) == '\n') {
                    return start + i + 1;
                }
            }
            end = start;
        }
        return 0;
    }

    private void takeBack(FileChannel file, long end) {
        try {
            file.truncate(end);
        } catch (IOException e) {
            LOG.warn("accounting file {}: could not take back a write cut short: {}", path, e.getMessage());
        }
    }

    private static void directory(Path dir) throws IOException {
        if (dir != null && !Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }

    /** A new file's name is durable once its directory is forced too. */
    private static void forceDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            LOG.debug("cannot force directory {}: {}", dir, e.getMessage());
        }
    }
}
