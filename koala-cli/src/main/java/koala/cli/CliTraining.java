package koala.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the user commands' class-data-sharing archive: {@code bin/koala build} runs
 * it once with {@code -XX:ArchiveClassesAtExit}, and every later {@code submit}, {@code jobs},
 * {@code status}, {@code cancel} and {@code sites} maps the classes it loaded instead of reading
 * and verifying them again (see {@link koala.common.process.ClassArchive}, which does the same for
 * the pilots' node launchers). It runs each command as a user would, against a
 * {@link CannedScheduler}, so that the archive holds what the real calls load: the JDF parser, the
 * grid configuration, the JSON mapping of every answer, the tables. (Picocli's classes are left
 * out by the JVM: they are compiled for Java 5, older than class-data sharing accepts.) Exit status
 * 0 when every command did what it should.
 */
public final class CliTraining {
    private static final String GRID = """
            grid.sites = fs0, fs1
            site.fs0.sge.cell = fs0
            site.fs0.node.count = 16
            site.fs1.sge.cell = fs1
            site.fs1.node.count = 8
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
        failed += run(0, where, "submit", job, job);
        failed += run(0, where, "submit", "--json", job);
        failed += run(Koala.BAD_INPUT, where, "submit", bad);
        failed += run(0, where, "jobs");
        failed += run(0, where, "jobs", "--json");
        failed += run(0, where, "status", "1");
        failed += run(0, where, "status", "--json", "1");
        failed += run(0, where, "cancel", "1");
        failed += run(0, where, "sites");
        failed += run(0, where, "sites", "--json");
        failed += run(0, List.of("--config=" + grid, "--scheduler=" + scheduler.url()), "sites");
        return failed;
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
