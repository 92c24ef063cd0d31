package koala.scheduler.storage;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;
import koala.common.failure.Conflict;
import koala.common.failure.InvalidField;

/**
 * Online backups of the scheduler's database ({@code koala admin backup}): each a zip that
 * {@link H2Store#backupTo} writes while the scheduler runs, kept in a directory of the scheduler's
 * own ({@code KOALA_HOME/scheduler/backups} beside the database, made 0700) and readable by the
 * scheduler's account only (0600), as the database is: it holds the agents' secrets and the nodes'
 * tokens.
 *
 * <p>The scheduler chooses where it writes, never the caller: it may run as root, and an admin
 * who is not (a member of the admin group) must not get it to write a file of root's wherever they
 * like. A caller may name the file — a plain name ending in {@code .zip} — and gets an error if it
 * exists; without a name it is {@code koala-YYYYMMDD-HHMMSSZ.zip}, the time of the backup in UTC.
 * The zip is written under a hidden name and linked to its own only when complete, so a backup
 * that failed half-way leaves nothing that looks like one.
 */
public final class Backups {
    /** A backup made: its file, its size and when it was taken. */
    public record Backup(String file, long bytes, Instant at) {
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}\\.zip");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final SqlStore store;
    private final Path directory;
    private final InstantSource clock;

    public Backups(SqlStore store, Path directory, InstantSource clock) {
        this.store = store;
        this.directory = directory.toAbsolutePath();
        this.clock = clock;
    }

    /** Backups of the database {@code database} ({@code scheduler.database}) go to its directory's {@code backups}. */
    public static Backups beside(SqlStore store, Path database, InstantSource clock) {
        return new Backups(store, database.toAbsolutePath().resolveSibling("backups"), clock);
    }

    public Path directory() {
        return directory;
    }

    /**
     * Backs the database up now, into {@code name} (null: named after the time).
     *
     * @throws InvalidField  a name that is not a plain {@code .zip} file name
     * @throws Conflict      a name already there
     * @throws StoreException           the backup could not be written
     * @throws koala.common.failure.Refused a store on PostgreSQL, which PostgreSQL's own tools back up
     */
    public Backup take(String name) {
        Instant at = clock.instant();
        String file = name == null ? "koala-" + STAMP.format(at) + ".zip" : checked(name);
        Path target = directory.resolve(file);
        if (Files.exists(target)) {
            throw new Conflict(target + " exists already; name another file", "file");
        }
        Path part = directory.resolve("." + file + ".part");
        try {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            Files.deleteIfExists(part);
            Files.createFile(part, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            store.backupTo(part);
            Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rw-------"));
            Files.createLink(target, part); // refuses a file made there meanwhile, where a move would replace it
            return new Backup(target.toString(), Files.size(target), at);
        } catch (FileAlreadyExistsException e) {
            throw new Conflict(target + " exists already; name another file", "file");
        } catch (IOException e) {
            throw new StoreException("cannot back up the scheduler database into " + directory + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(part);
            } catch (IOException e) {
                // a hidden leftover the next backup of that name removes
            }
        }
    }

    private static String checked(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new InvalidField("file", "'" + name + "' is not a backup's name: a plain file name (letters, "
                    + "digits, '.', '_', '-'; no directory) ending in .zip; the scheduler writes it into its backups "
                    + "directory");
        }
        return name;
    }
}
