package koala.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import koala.grid.KoalaHome;

/**
 * The training run of the user commands' class-data-sharing archive: {@code bin/koala build} runs
 * it once with {@code -XX:ArchiveClassesAtExit}, and every later {@code submit}, {@code jobs},
 * {@code status}, {@code cancel} and {@code sites} maps the classes it loaded instead of reading
 * and verifying them again (see {@link koala.process.ClassArchive}, which does the same for
 * the pilots' node launchers). It runs each command as a user would, against a
 * {@link CannedScheduler}, so that the archive holds what the real calls load: the JDF parser, the
 * grid configuration, the JSON mapping of every answer, the tables. (Picocli's classes are left
 * out by the JVM: they are compiled for Java 5, older than class-data sharing accepts.) Exit status
 * 0 when every command did what it should.
 */
public final class CliTraining {
    private static final String GRID = """
            grid.sites = fs0, fs1, fs2
            grid.host = koala-host
            site.fs0.sge.cell = fs0
            site.fs0.node.count = 16
            site.fs0.node.cores = 2
            site.fs0.node.nativeSpec =
            site.fs0.agent.user = koala
            site.fs0.shared = /srv/fs0/shared
            site.fs1.sge.cell = fs1
            site.fs1.node.count = 8
            site.fs2.sge.cell = fs2
            site.fs2.node.count = 8
            site.fs2.ssh.host = fs2-head
            site.fs2.ssh.user = koala
            site.fs2.ssh.key = /nonexistent/koala-fs2
            site.fs2.ssh.knownHosts = /nonexistent/known_hosts-fs2
            site.fs2.ssh.relayHost = fs2-head
            files = genome.dat
            file.genome.dat.size = 4G
            file.genome.dat.sites = fs1
            bandwidth.default = 100
            """;

    private CliTraining() {
    }

    public static void main(String[] args) throws IOException {
        UserCommands.quietLogging();
        Path dir = Files.createTempDirectory("koala-cli-training-");
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int failed;
        try (CannedScheduler scheduler = CannedScheduler.start()) {
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            System.setErr(new PrintStream(errors, true));
            failed = train(dir, scheduler);
        } finally {
            System.setOut(out);
            System.setErr(err);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
        if (failed > 0) {
            System.err.print(errors);
            System.err.println("koala: the class archive's training run: " + failed + " command(s) did not do what they should");
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * Each command once or twice, as {@code bin/koala} runs it ({@link UserCommands#run}), and one
     * that picocli reads; the number of them that ended otherwise than expected.
     */
    static int train(Path dir, CannedScheduler scheduler) throws IOException {
        String grid = Files.writeString(dir.resolve("grid.properties"), GRID).toString();
        String job = Files.writeString(dir.resolve("job.jdf"), "&(executable = /bin/hostname)(count = 2)\n").toString();
        String bad = Files.writeString(dir.resolve("bad.jdf"), "&(count = two)\n").toString();
        List<String> where = List.of("--config", grid, "--scheduler", scheduler.url().toString());
        int failed = 0;
        // as bin/koala runs for a user: the grid file found by KOALA_HOME, the scheduler on its Unix socket
        KoalaHome.gridConfig();
        try (SocketRelay relay = new SocketRelay(dir.resolve("scheduler.sock"), scheduler.url())) {
            List<String> unix = List.of("--config", grid, "--scheduler", "unix:" + relay.path());
            failed += run(0, unix, "submit", job);
            failed += run(0, unix, "jobs");
            failed += run(0, unix, "sites");
        }
        failed += run(0, where, "submit", job, job);
        failed += run(0, where, "submit", "--json", job);
        failed += run(Koala.BAD_INPUT, where, "submit", bad);
        failed += run(0, where, "jobs");
        failed += run(0, where, "jobs", "--json");
        failed += run(0, where, "status", "1");
        failed += run(0, where, "status", "--json", "1");
        failed += run(0, where, "cancel", "1");
        failed += run(0, where, "cancel", "1", "2");
        failed += run(0, where, "sites");
        failed += run(0, where, "sites", "--json");
        failed += run(0, List.of("--config=" + grid, "--scheduler=" + scheduler.url()), "sites");
        return failed;
    }

    /**
     * The canned scheduler on a Unix socket too, as bin/koala reaches the real one: each connection
     * relayed to its TCP port, both ways, until the scheduler's side closes it.
     */
    private static final class SocketRelay implements AutoCloseable {
        private final Path path;
        private final ServerSocketChannel server;

        SocketRelay(Path path, URI target) throws IOException {
            this.path = path;
            this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(path));
            InetSocketAddress to = new InetSocketAddress(target.getHost(), target.getPort());
            daemon(() -> {
                try {
                    while (true) {
                        SocketChannel unix = server.accept();
                        SocketChannel tcp = SocketChannel.open(to);
                        daemon(() -> copy(unix, tcp, unix, tcp));
                        daemon(() -> copy(tcp, unix, unix, tcp));
                    }
                } catch (IOException e) {
                    // closed: training is over
                }
            });
        }

        Path path() {
            return path;
        }

        private static void copy(SocketChannel from, SocketChannel to, SocketChannel a, SocketChannel b) {
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
            } catch (IOException e) {
                // the other direction closed both
            } finally {
                closeQuietly(a);
                closeQuietly(b);
            }
        }

        private static void daemon(Runnable work) {
            Thread t = new Thread(work, "training-relay");
            t.setDaemon(true);
            t.start();
        }

        private static void closeQuietly(SocketChannel channel) {
            try {
                channel.close();
            } catch (IOException e) {
                // already closed
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            Files.deleteIfExists(path);
        }
    }

    private static int run(int expected, List<String> where, String command, String... rest) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(where);
        args.addAll(List.of(rest));
        int status = UserCommands.run(args.toArray(String[]::new));
        if (status != expected) {
            System.err.println("  koala " + String.join(" ", args) + ": exit " + status + ", expected " + expected);
            return 1;
        }
        return 0;
    }
}
