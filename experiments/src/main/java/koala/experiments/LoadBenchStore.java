package koala.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import koala.common.net.FreePort;
import koala.scheduler.storage.H2Store;
import koala.scheduler.storage.PostgresStore;
import koala.scheduler.storage.SqlStore;
import koala.testbed.PostgresServer;

/**
 * The store a pass of {@code bench scheduler-load} runs on, open for that pass: H2 in a file in the pass's
 * directory, as a head node keeps it by default, or PostgreSQL on a server of the pass's own, as head nodes
 * that share a store have it. That server runs on this machine in a temporary directory of its own and is
 * reached over the loopback, so no network between a head node and its database is measured; it runs with
 * PostgreSQL's defaults (a commit waits for its write-ahead log on disk). Closing closes the store, then stops
 * the server and deletes its directory.
 */
final class LoadBenchStore implements AutoCloseable {
    private static final String DATABASE = "koala_bench";
    private static final String ROLE = "koala";
    private static final String LETTERS_AND_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    /** The stores a pass can run on, by the name {@code --store} gives them. */
    enum Kind {
        H2("h2", "H2", "H2", ""),
        POSTGRES("postgres", "PostgreSQL", "the JDBC driver", " (the PostgreSQL server's processes not counted)");

        final String option;
        final String label;
        /** What of the store runs in the bench's process, whose CPU time it counts, and what it does not count. */
        final String inProcess;
        final String notCounted;

        Kind(String option, String label, String inProcess, String notCounted) {
            this.option = option;
            this.label = label;
            this.inProcess = inProcess;
            this.notCounted = notCounted;
        }

        static Kind of(String option) {
            for (Kind k : values()) {
                if (k.option.equals(option)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("no store " + option);
        }

        /** Fails before any pass has run when this store cannot be had on this machine. */
        void requireInstalled() {
            if (this == POSTGRES && !PostgresServer.installed()) {
                throw new IllegalStateException("--store " + option + ": PostgreSQL is not installed (the Debian "
                        + "package postgresql: apt-get install postgresql)");
            }
        }

        /** Opens this kind of store for a pass; {@code file}: where the settings put H2's file. */
        LoadBenchStore open(Path file) throws Exception {
            return this == H2 ? h2(file) : postgres();
        }
    }

    /** What a store of one kind needs besides the SqlStore: its size, and what its closing stops. */
    private interface Host extends AutoCloseable {
        double megabytes() throws Exception;

        @Override
        void close() throws IOException;
    }

    private final String described;
    private final SqlStore store;
    private final Host host;

    private LoadBenchStore(String described, SqlStore store, Host host) {
        this.described = described;
        this.store = store;
        this.host = host;
    }

    SqlStore store() {
        return store;
    }

    /** Which store, and where it lies, for the heading of the pass. */
    String describe() {
        return described;
    }

    /** The database's size on disk now, in MB. */
    double megabytes() throws Exception {
        return host.megabytes();
    }

    @Override
    public void close() throws IOException {
        try {
            store.close();
        } finally {
            host.close();
        }
    }

    /**
     * H2 in {@code file} (in the pass's directory), its page cache (16 MB by default) kept at 1 MB and its chunks
     * not kept 45 s after they die (RETENTION_TIME: the bench commits hundreds of times a second, and 45 s of dead
     * chunks' bookkeeping would be most of the heap it measures), so that the heap shows the scheduler's own.
     */
    private static LoadBenchStore h2(Path file) {
        H2Store store = H2Store.open(file, ";CACHE_SIZE=1024;RETENTION_TIME=0");
        Host host = new Host() {
            @Override
            public double megabytes() throws IOException {
                return Files.size(file.resolveSibling(file.getFileName() + ".mv.db")) / 1048576.0;
            }

            @Override
            public void close() {
                // the file goes with the pass's directory
            }
        };
        return new LoadBenchStore("H2: a file, its page cache 1 MB, dead chunks not retained (in the JVM)", store, host);
    }

    /** PostgreSQL on a server started now in a directory of its own, with a role and a database for the pass. */
    private static LoadBenchStore postgres() throws Exception {
        Kind.POSTGRES.requireInstalled();
        PostgresHost host = new PostgresHost();
        try {
            PostgresServer server = host.start();
            String version = query(host.url, host.password, "SHOW server_version");
            PostgresStore store = PostgresStore.open(host.url, ROLE, host.password);
            return new LoadBenchStore("PostgreSQL " + version + ": a server of the bench's own on 127.0.0.1:"
                    + server.port() + ", its defaults (out of the JVM)", store, host);
        } catch (Exception e) {
            try {
                host.close();
            } catch (IOException | RuntimeException also) {
                e.addSuppressed(also);
            }
            throw e;
        }
    }

    /**
     * The server a PostgreSQL store runs on, and its directory: stopped and deleted when closed, or as the JVM
     * exits before that (Ctrl-C), so that no server of the bench's is left running with its port and its files.
     */
    private static final class PostgresHost implements Host {
        private final Thread onExit = new Thread(this::closeQuietly, "stop the bench's PostgreSQL");
        private final String password = password();
        private Path dir;
        private PostgresServer server;
        private String url;
        private boolean closed;

        /** Starts the server, with the role and the database the store logs in to. */
        synchronized PostgresServer start() throws IOException {
            Runtime.getRuntime().addShutdownHook(onExit);
            // not in the pass's directory: when run as root, the server runs as postgres, which may not enter that one
            dir = Files.createTempDirectory("koala-load-bench-postgresql-");
            server = PostgresServer.start(dir, FreePort.any(), List.of("127.0.0.1"), List.of(), List.of());
            server.createDatabase(DATABASE, ROLE, password);
            url = server.jdbcUrl("127.0.0.1", DATABASE);
            return server;
        }

        /** The database's size as the server counts it, its catalog included. */
        @Override
        public double megabytes() throws SQLException {
            return Long.parseLong(query(url, password, "SELECT pg_database_size(current_database())")) / 1048576.0;
        }

        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException exiting) {
                // closing in the hook itself, or while the JVM exits
            }
            try {
                if (server != null) {
                    server.close();
                }
            } finally {
                if (dir != null) {
                    LoadBench.deleteAll(dir);
                }
            }
        }

        private void closeQuietly() {
            try {
                close();
            } catch (IOException | RuntimeException e) {
                System.err.println("koala: the bench's PostgreSQL in " + dir + ": " + e.getMessage());
            }
        }
    }

    /** One value, read on a connection of its own (not the store's, whose statements the bench counts). */
    private static String query(String url, String password, String sql) throws SQLException {
        try (Connection db = DriverManager.getConnection(url, ROLE, password); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Letters and digits only: createDatabase puts the password into SQL as it is. */
    private static String password() {
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            password.append(LETTERS_AND_DIGITS.charAt(random.nextInt(LETTERS_AND_DIGITS.length())));
        }
        return password.toString();
    }
}
