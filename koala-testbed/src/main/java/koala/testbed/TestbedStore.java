package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.grid.KoalaHome;

/**
 * The scheduler's store when the testbed's plan asks for PostgreSQL ({@code testbed up --store postgres}): a
 * cluster of the testbed's own ({@link PostgresServer}) in {@value #DIRECTORY}, started without systemd by its own
 * {@code pg_ctl} on the KOALA host. It listens on port {@value #PORT} at the loopback and at the KOALA host's
 * address on the grid's bridge ({@value TestbedPlan#KOALA_ADDRESS}), and lets in with a password the grid's
 * network ({@value TestbedPlan#GRID_NETWORK}), so that a scheduler on any host of the grid reaches it. It holds
 * the database {@value #DATABASE}, owned by the login role {@value #USER}, whose password (letters and digits,
 * made once) is kept in {@code /etc/koala/database.password}, mode 600, beside the grid configuration that
 * names it ({@link #gridSettings()}).
 *
 * <p>Like the rest of {@code up} it is idempotent: a server that runs as asked is left running, an existing
 * password file is used as it is. An {@code up} that asks for H2 and {@code down} stop the server; its data stay
 * in the directory for the next {@code up --store postgres}.
 */
public final class TestbedStore {
    /** Beside the testbed's other directories (/run/koala-testbed, /srv/koala-testbed): its state, kept. */
    public static final String DIRECTORY = "/var/lib/koala-testbed/postgres";
    /** The cluster's directory: the cluster ({@code data}), its socket directory and its log. */
    public static final Path DIR = Path.of(DIRECTORY);
    public static final int PORT = 5432;
    public static final String DATABASE = "koala";
    public static final String USER = "koala";
    /** The password of {@value #USER}, readable by root only: the grid configuration is everyone's to read. */
    public static final Path PASSWORD_FILE = KoalaHome.SYSTEM_CONFIG.resolveSibling("database.password");
    /** The loopback, for the KOALA host's own clients, and the KOALA host on the grid's bridge. */
    static final List<String> LISTEN = List.of("127.0.0.1", TestbedPlan.KOALA_ADDRESS);
    static final List<String> CLIENTS = List.of(TestbedPlan.GRID_NETWORK);
    /** Where Debian's own clusters (postgresql-common, {@code pg_ctlcluster}) keep their sockets and lock files. */
    static final Path SYSTEM_SOCKETS = Path.of("/var/run/postgresql");
    static final int PASSWORD_LENGTH = 32;
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rw-------");
    /** How long a connect to a port that may be taken waits: a local port answers at once or not at all. */
    private static final int CONNECT_TIMEOUT_MS = 1000;
    private static final Pattern DEBIAN_CLUSTER = Pattern.compile("/var/lib/postgresql/([0-9.]+)/([^/]+)/?");

    private final Path dir;
    private final Path passwordFile;
    private final Progress progress;
    private final SecureRandom random = new SecureRandom();

    TestbedStore(Path dir, Path passwordFile, Progress progress) {
        this.dir = dir;
        this.passwordFile = passwordFile;
        this.progress = progress;
    }

    /** The testbed's: in {@link #DIR}, the password in {@link #PASSWORD_FILE}. */
    static TestbedStore of(Progress progress) {
        return new TestbedStore(DIR, PASSWORD_FILE, progress);
    }

    /** The URL schedulers connect with: {@code jdbc:postgresql://198.18.0.1:5432/koala}. */
    public static String url() {
        return "jdbc:postgresql://" + TestbedPlan.KOALA_ADDRESS + ":" + PORT + "/" + DATABASE;
    }

    /** What the grid configuration says of this store, in the order it is written. */
    static Map<String, String> gridSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("scheduler.database", url());
        settings.put("scheduler.database.user", USER);
        settings.put("scheduler.database.passwordFile", PASSWORD_FILE.toString());
        return settings;
    }

    /**
     * The password file, made when missing; the server, started when it does not run as asked (made first when
     * the directory holds no cluster); the role and its database, made when missing. Returns the changes, empty
     * when all was there. Refuses, saying who holds it, when another server has the port.
     */
    List<String> ensure() {
        String version = PostgresServer.version().orElse("?");
        Password password = password(passwordFile, random);
        List<String> changes = new ArrayList<>(password.changes());
        PostgresServer server = PostgresServer.at(dir, PORT, LISTEN, List.of());
        boolean running = server.running();
        if (!running || !server.runsWith(CLIENTS)) {
            if (!running) {
                portTaken(LISTEN, PORT, SYSTEM_SOCKETS).ifPresent(why -> {
                    throw new TestbedException(why);
                });
            }
            boolean made = server.made();
            String what = (running ? "restarting" : made ? "starting" : "making and starting") + " PostgreSQL " + version;
            progress.step("store: " + what + " in " + dir + " (port " + PORT + " at " + String.join(" and ", LISTEN)
                    + "; clients " + String.join(", ", CLIENTS) + ")" + (running ? ": it ran with other settings" : ""));
            server = PostgresServer.start(dir, PORT, LISTEN, CLIENTS, List.of());
            changes.add((running ? "restarted" : made ? "started" : "made and started") + " the testbed's PostgreSQL "
                    + version + " in " + dir);
        }
        if (!server.hasDatabase(DATABASE, USER, password.value())) {
            server.createDatabase(DATABASE, USER, password.value());
            changes.add("made database " + DATABASE + " of role " + USER + " (its password in " + passwordFile + ")");
        }
        progress.step("store: PostgreSQL " + version + " at " + TestbedPlan.KOALA_ADDRESS + ":" + PORT + ", database "
                + DATABASE + " of role " + USER + ", password in " + passwordFile
                + (changes.isEmpty() ? "; already running, unchanged" : ""));
        return changes;
    }

    /** Stops the server if it runs, saying {@code why}; its data stay. Returns the change, none when it was stopped. */
    List<String> stop(String why) {
        if (!PostgresServer.installed()) {
            return List.of();
        }
        PostgresServer server = PostgresServer.at(dir, PORT, LISTEN, List.of());
        if (!server.made() || !server.running()) {
            return List.of();
        }
        progress.step("store: stopping the testbed's PostgreSQL (" + why + "); its data stay in " + dir);
        server.stop();
        return List.of("stopped the testbed's PostgreSQL (" + why + ")");
    }

    /** The store {@code store} names, as {@code testbed status} shows it. */
    StoreStatus status(TestbedPlan.Store store) {
        if (store != TestbedPlan.Store.POSTGRES) {
            return StoreStatus.H2;
        }
        Optional<String> version = PostgresServer.version();
        boolean running = version.isPresent() && PostgresServer.at(dir, PORT, LISTEN, List.of()).running();
        return new StoreStatus("postgresql", version.orElse(null), TestbedPlan.KOALA_ADDRESS, PORT, DATABASE,
                dir.toString(), running);
    }

    // ---- the password ---------------------------------------------------------------------------

    /** The password, and what was done to its file. */
    record Password(String value, List<String> changes) {
    }

    /**
     * The password in {@code file}'s first line (as the scheduler reads it), made private (mode 600, owned by this
     * process's user) if it was not; when there is no file, a new password ({@link #newPassword}) in a new one.
     */
    static Password password(Path file, SecureRandom random) {
        try {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                String value = newPassword(random);
                Files.createDirectories(file.getParent());
                try {
                    // private from the start: no moment in which another user may read it
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(PRIVATE));
                } catch (FileAlreadyExistsException e) {
                    return password(file, random);
                }
                Files.setPosixFilePermissions(file, PRIVATE);
                Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
                return new Password(value, List.of("made " + file + ", the database password (mode 600)"));
            }
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new TestbedException(file + " is not a plain file; the testbed keeps the database password there: "
                        + "move it aside");
            }
            String value = Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("");
            if (!usable(value)) {
                throw new TestbedException(file + ": its first line is not a password the testbed can give PostgreSQL "
                        + "(empty, or with a quote, a backslash or a control character); remove the file and testbed up "
                        + "makes a new one");
            }
            List<String> changes = new ArrayList<>();
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            if (!mode.equals(PRIVATE)) {
                Files.setPosixFilePermissions(file, PRIVATE);
                changes.add(file + ": mode 600 (it was " + PosixFilePermissions.toString(mode) + ")");
            }
            UserPrincipal me = file.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
            UserPrincipal owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS);
            if (!owner.equals(me)) {
                Files.setOwner(file, me);
                changes.add(file + ": owner " + me.getName() + " (it was " + owner.getName() + ")");
            }
            return new Password(value, changes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@value #PASSWORD_LENGTH} letters and digits from {@code random}: about 190 bits. */
    static String newPassword(SecureRandom random) {
        StringBuilder s = new StringBuilder(PASSWORD_LENGTH);
        for (int i = 0; i < PASSWORD_LENGTH; i++) {
            s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return s.toString();
    }

    /** What {@link PostgresServer#createDatabase} takes: SQL gets it as it is. */
    private static boolean usable(String password) {
        return !password.isEmpty() && password.chars().noneMatch(c -> "'\"`\\".indexOf(c) >= 0 || Character.isISOControl(c));
    }

    // ---- the port -------------------------------------------------------------------------------

    /** A cluster of Debian's own (postgresql-common) that holds the port: its pid and data directory. */
    record SystemCluster(long pid, Path data) {
    }

    /**
     * Why the server cannot start when something already answers on {@code port} at one of {@code addresses}:
     * who holds it, and what to do; empty when the port is free.
     */
    static Optional<String> portTaken(List<String> addresses, int port, Path systemSockets) {
        for (String address : addresses) {
            if (answers(address, port)) {
                return Optional.of(takenMessage(address, port, systemCluster(systemSockets, port)));
            }
        }
        return Optional.empty();
    }

    private static boolean answers(String address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), CONNECT_TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The cluster whose socket lock file ({@code .s.PGSQL.PORT.lock}: its pid, then its data directory) lies in
     * {@code sockets}, when that process lives.
     */
    static Optional<SystemCluster> systemCluster(Path sockets, int port) {
        Path lock = sockets.resolve(".s.PGSQL." + port + ".lock");
        try {
            List<String> lines = Files.readAllLines(lock, StandardCharsets.UTF_8);
            long pid = Long.parseLong(lines.get(0).strip());
            if (lines.size() < 2 || ProcessHandle.of(pid).isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new SystemCluster(pid, Path.of(lines.get(1).strip())));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static String takenMessage(String address, int port, Optional<SystemCluster> holder) {
        String who = holder.map(c -> "the system's own PostgreSQL cluster (pid " + c.pid() + ", data " + c.data()
                        + ", socket in " + SYSTEM_SOCKETS + ")")
                .orElse("a program other than the testbed's PostgreSQL (ss -ltnp 'sport = :" + port + "' names it)");
        String stop = holder.map(c -> {
            Matcher m = DEBIAN_CLUSTER.matcher(c.data().toString());
            return m.matches() ? "stop that cluster (pg_ctlcluster " + m.group(1) + " " + m.group(2) + " stop)"
                    : "stop that cluster (runuser -u postgres -- pg_ctl -D " + c.data() + " stop)";
        }).orElse("stop it");
        return "port " + port + " at " + address + " is taken by " + who + ". The testbed's PostgreSQL listens on port "
                + port + " at " + String.join(" and ", LISTEN) + ", and the grid configuration names " + url()
                + ": " + stop + ", or bring the testbed up without --store postgres";
    }
}
