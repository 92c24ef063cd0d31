package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of its own, in a directory the caller gives: the store that two schedulers share
 * ({@code scheduler.database = jdbc:postgresql://...}), for the tests and the testbed. It runs Debian's
 * package, whose programs lie in {@code /usr/lib/postgresql/VERSION/bin} and not on the PATH.
 *
 * <p>The directory holds the cluster ({@code data}), the server's socket ({@code socket}, its own, so that
 * it never meets the system's cluster in {@code /var/run/postgresql}) and its log ({@code postgresql.log}).
 * Over TCP only the loopback and the networks the caller names get in, and only with a password; the
 * superuser {@code postgres} logs in only over the socket, without one. PostgreSQL refuses to run as root,
 * so a JVM running as root runs every command as the account {@code postgres} and hands it the directory.
 * On a host of the testbed, every command runs inside that host's namespaces ({@code enter}).
 */
public final class PostgresServer implements AutoCloseable {
    private static final Path VERSIONS = Path.of("/usr/lib/postgresql");
    private static final String SUPERUSER = "postgres";
    /** How long pg_ctl waits for the server to start or to stop. */
    private static final int WAIT_SECONDS = 30;
    private static final int LOG_LINES = 20;
    /** PostgreSQL's names are at most 63 bytes long. */
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    /** A host name or address the server listens on, or {@code *}: nothing pg_ctl's shell would read. */
    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9.:_*-]+");
    private static final Pattern CIDR = Pattern.compile("[0-9A-Fa-f.:]+/[0-9]{1,3}");
    /** A server that does not answer ends the command rather than the testbed's wait. */
    private static final Map<String, String> PSQL_ENVIRONMENT = Map.of("PGCONNECT_TIMEOUT", "10",
            "PGOPTIONS", "-c statement_timeout=60s");

    private final Path bin;
    private final Path dir;
    private final int port;
    private final List<String> listenAddresses;
    /** Runs the commands that prepare the directory (as this JVM's user). */
    private final Shell admin;
    /** Runs PostgreSQL's own programs: as postgres when this JVM runs as root. */
    private final Shell owner;

    private PostgresServer(Path bin, Path dir, int port, List<String> listenAddresses, List<String> enter) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.listenAddresses = List.copyOf(listenAddresses);
        this.admin = Shell.root().on(enter);
        this.owner = root() ? admin.as(SUPERUSER) : admin;
    }

    /** Debian's PostgreSQL binaries are installed (the package postgresql). */
    public static boolean installed() {
        return bin().isPresent();
    }

    /**
     * Starts the cluster in {@code dir}, made first if the directory holds none yet, and returns once it
     * accepts connections. It listens on {@code port} at {@code listenAddresses} (such as
     * {@code "127.0.0.1"}) and lets in with a password the loopback and the {@code clients}, networks such as
     * {@code "198.18.0.0/16"}. Each start writes the clients anew, and a server already running in
     * {@code dir} is stopped first, so that the settings given here are the ones it runs with.
     * {@code enter} goes before every command ({@code ["nsenter", "--net=/run/netns/fs0-head"]} to run it on
     * a host of the testbed); empty on this host.
     */
    public static PostgresServer start(Path dir, int port, List<String> listenAddresses, List<String> clients,
            List<String> enter) {
        clients.forEach(c -> require(CIDR, c, "client network (address/bits)"));
        PostgresServer server = at(dir, port, listenAddresses, enter);
        server.prepare(clients);
        server.start();
        return server;
    }

    /**
     * The cluster in {@code dir} as {@link #start} would run it, neither made nor started nor stopped: to ask
     * whether it runs ({@link #running()}, {@link #runsWith}), to stop it, or to start it again when it was made
     * before. The arguments are those of {@link #start}.
     */
    public static PostgresServer at(Path dir, int port, List<String> listenAddresses, List<String> enter) {
        Path bin = bin().orElseThrow(() -> new TestbedException(
                "PostgreSQL is not installed (the package postgresql): no " + VERSIONS + "/VERSION/bin/pg_ctl"));
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("not a TCP port: " + port);
        }
        listenAddresses.forEach(a -> require(ADDRESS, a, "listen address"));
        Path home = dir.toAbsolutePath().normalize();
        if (home.toString().contains("'")) {
            throw new IllegalArgumentException("a quote in the directory of a PostgreSQL server: " + home);
        }
        return new PostgresServer(bin, home, port, listenAddresses, enter);
    }

    /** The installed PostgreSQL's major version ({@code "15"}): the newest under /usr/lib/postgresql. */
    public static Optional<String> version() {
        return bin().map(b -> b.getParent().getFileName().toString());
    }

    /** The directory holds a cluster ({@code initdb} has run in it). */
    public boolean made() {
        return Files.exists(data().resolve("PG_VERSION"));
    }

    /**
     * The server runs as {@link #start} with these {@code clients} would run it: on this port at these
     * addresses, its socket in the directory, letting in the loopback and the {@code clients}; so a start would
     * change nothing.
     */
    public boolean runsWith(List<String> clients) {
        clients.forEach(c -> require(CIDR, c, "client network (address/bits)"));
        if (!running()) {
            return false;
        }
        // over the socket in the directory, on this port: a server on another port or socket does not answer
        Shell.Result settings = owner.with(PSQL_ENVIRONMENT).run(psqlCommand(
                "SELECT current_setting('port') || ' ' || current_setting('listen_addresses')"), line -> { });
        if (!settings.ok() || !settings.out().strip().equals(port + " " + String.join(",", listenAddresses))) {
            return false;
        }
        try {
            return Files.readString(data().resolve("pg_hba.conf"), StandardCharsets.UTF_8).equals(hba(clients));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The database {@code database} exists, owned by the login role {@code owner}, who logs in to it over TCP
     * with {@code password}: {@link #createDatabase} would change nothing. The server runs.
     */
    public boolean hasDatabase(String database, String owner, String password) {
        require(NAME, database, "database name");
        require(NAME, owner, "role name");
        String owned = psql("SELECT count(*) FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE d.datname = '"
                + database + "' AND r.rolname = '" + owner + "' AND r.rolcanlogin").out().strip();
        if (!owned.equals("1")) {
            return false;
        }
        // as this JVM's user, not through runuser: the password stays in the environment, out of the command line
        Shell.Result login = admin.with(Map.of("PGPASSWORD", password, "PGCONNECT_TIMEOUT", "10")).run(
                List.of(program(bin, "psql"), "-X", "-w", "-q", "-t", "-A", "-h", loopback(), "-p", String.valueOf(port),
                        "-U", owner, "-d", database, "-c", "SELECT current_user"), line -> { });
        return login.ok() && login.out().strip().equals(owner);
    }

    public int port() {
        return port;
    }

    /**
     * Makes a login role {@code owner} with {@code password} and a database {@code database} that it owns,
     * unless they exist; an existing role gets that password, an existing database that owner, so calling it
     * again changes nothing. Names are {@code [a-z_][a-z0-9_]*}, and the password holds no quote, backslash
     * or control character (they go into SQL as they are); else IllegalArgumentException.
     */
    public void createDatabase(String database, String owner, String password) {
        require(NAME, database, "database name");
        require(NAME, owner, "role name");
        if (password == null || password.isEmpty() || password.chars().anyMatch(c -> "'\"`\\".indexOf(c) >= 0
                || Character.isISOControl(c))) {
            throw new IllegalArgumentException("a password must be non-empty, without quotes, backslashes or "
                    + "control characters");
        }
        String[] exist = psql("SELECT (SELECT count(*) FROM pg_roles WHERE rolname = '" + owner + "') || ',' || "
                + "(SELECT count(*) FROM pg_database WHERE datname = '" + database + "')").out().strip().split(",");
        boolean role = !exist[0].equals("0");
        boolean base = !exist[1].equals("0");
        // names are quoted so that one like "user" is no keyword; each -c commits on its own, as CREATE DATABASE needs
        psql((role ? "ALTER" : "CREATE") + " ROLE \"" + owner + "\" LOGIN PASSWORD '" + password + "'",
                base ? "ALTER DATABASE \"" + database + "\" OWNER TO \"" + owner + "\""
                        : "CREATE DATABASE \"" + database + "\" OWNER \"" + owner + "\"");
    }

    /** {@code jdbc:postgresql://HOST:PORT/DATABASE}, the URL a scheduler on {@code host}'s side connects with. */
    public String jdbcUrl(String host, String database) {
        String at = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return "jdbc:postgresql://" + at + ":" + port + "/" + database;
    }

    /** Stops the server ({@code pg_ctl stop -m fast}: sessions are ended, nothing is lost); nothing when stopped. */
    public void stop() {
        if (running()) {
            owner.check(program(bin, "pg_ctl"), "-D", data().toString(), "-m", "fast", "-w", "-t",
                    String.valueOf(WAIT_SECONDS), "stop");
        }
    }

    /**
     * Starts the server again after {@link #stop()}, with the same directory, port and settings, and returns
     * once it accepts connections; nothing when it runs. A failed start says the log's last lines.
     */
    public void start() {
        if (running()) {
            return;
        }
        String options = "-p " + port + " -k '" + socket() + "' -c listen_addresses='"
                + String.join(",", listenAddresses) + "'";
        Shell.Result result = owner.run(List.of(program(bin, "pg_ctl"), "-D", data().toString(), "-l", log().toString(),
                "-w", "-t", String.valueOf(WAIT_SECONDS), "-o", options, "start"), line -> { });
        try {
            result.check();
        } catch (TestbedException e) {
            throw new TestbedException(e.getMessage() + "\nthe last lines of " + log() + ":\n" + tail());
        }
    }

    /** The server runs ({@code pg_ctl status}). */
    public boolean running() {
        return owner.run(program(bin, "pg_ctl"), "-D", data().toString(), "status").ok();
    }

    /** Stops the server. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "PostgreSQL in " + dir + " on port " + port;
    }

    /** The path of one of the installed PostgreSQL's programs ({@code psql}, ...), for the tests. */
    static String program(String name) {
        return program(bin().orElseThrow(() -> new TestbedException("PostgreSQL is not installed")), name);
    }

    private static String program(Path bin, String name) {
        return bin.resolve(name).toString();
    }

    /** The newest installed version's programs: Debian keeps each major version apart. */
    private static Optional<Path> bin() {
        if (!Files.isDirectory(VERSIONS)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(VERSIONS)) {
            return versions.filter(v -> v.getFileName().toString().matches("[0-9]+(\\.[0-9]+)*"))
                    .filter(v -> Stream.of("initdb", "pg_ctl", "postgres", "psql")
                            .allMatch(p -> Files.isExecutable(v.resolve("bin").resolve(p))))
                    .max(Comparator.comparing(v -> Runtime.Version.parse(v.getFileName().toString())))
                    .map(v -> v.resolve("bin"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The directory with its socket directory, owned by postgres when run as root; the cluster; the clients. */
    private void prepare(List<String> clients) {
        stop();
        try {
            Files.createDirectories(socket());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (root()) {
            admin.check("chown", "-R", SUPERUSER + ":", dir.toString());
        }
        if (!Files.exists(data().resolve("PG_VERSION"))) {
            owner.check(program(bin, "initdb"), "-D", data().toString(), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8",
                    "--locale=C.UTF-8");
        }
        Path hba = data().resolve("pg_hba.conf");
        try {
            Files.writeString(hba, hba(clients), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (root()) {
            admin.check("chown", SUPERUSER + ":", hba.toString());
        }
    }

    /** Who gets in: the superuser over the socket, everyone else over TCP from the loopback and the clients. */
    static String hba(List<String> clients) {
        List<String> lines = new ArrayList<>(List.of(
                "# written by koala.testbed.PostgresServer; each start writes it anew",
                "# TYPE  DATABASE  USER      ADDRESS          METHOD",
                "local   all       " + SUPERUSER + "  trust",
                "local   all       all                        reject",
                "host    all       all       127.0.0.1/32     scram-sha-256",
                "host    all       all       ::1/128          scram-sha-256"));
        clients.forEach(c -> lines.add(String.format("host    all       all       %-16s scram-sha-256", c)));
        lines.add("host    all       all       0.0.0.0/0        reject");
        lines.add("host    all       all       ::/0             reject");
        return String.join("\n", lines) + "\n";
    }

    /** Runs SQL as the superuser over the socket: each statement on its own, stopping at the first error. */
    private Shell.Result psql(String... statements) {
        return owner.with(PSQL_ENVIRONMENT).run(psqlCommand(statements), line -> { }).check();
    }

    private List<String> psqlCommand(String... statements) {
        List<String> command = new ArrayList<>(List.of(program(bin, "psql"), "-X", "-w", "-q", "-t", "-A",
                "-h", socket().toString(), "-p", String.valueOf(port), "-U", SUPERUSER, "-d", "postgres",
                "-v", "ON_ERROR_STOP=1"));
        for (String statement : statements) {
            command.add("-c");
            command.add(statement);
        }
        return command;
    }

    /** Where a client on the server's host reaches it over TCP: its first address, the loopback for a wildcard. */
    private String loopback() {
        String first = listenAddresses.isEmpty() ? "*" : listenAddresses.get(0);
        return switch (first) {
            case "*", "0.0.0.0" -> "127.0.0.1";
            case "::" -> "::1";
            default -> first;
        };
    }

    private String tail() {
        try {
            List<String> lines = new String(Files.readAllBytes(log()), StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private Path data() {
        return dir.resolve("data");
    }

    private Path socket() {
        return dir.resolve("socket");
    }

    private Path log() {
        return dir.resolve("postgresql.log");
    }

    private static void require(Pattern pattern, String value, String what) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw new IllegalArgumentException("not a " + what + ": " + value);
        }
    }

    /** PostgreSQL's programs refuse to run as root. */
    private static boolean root() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
