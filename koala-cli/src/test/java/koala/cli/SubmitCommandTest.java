package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import koala.api.scheduler.SubmitRequest;
import koala.auth.Identity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code koala submit FILE...}: each file a job, failures named, the exit status of the worst. */
class SubmitCommandTest {
    @TempDir
    Path dir;

    private CannedScheduler scheduler;
    private Path grid;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws IOException {
        scheduler = CannedScheduler.start();
        grid = Files.writeString(dir.resolve("grid.properties"), """
                grid.sites = fs0, fs1
                site.fs0.sge.cell = fs0
                site.fs0.node.count = 16
                site.fs1.sge.cell = fs1
                site.fs1.node.count = 8
                """);
    }

    @AfterEach
    void stop() {
        scheduler.close();
    }

    private int submit(String... args) {
        return submitAs(null, args);
    }

    /** As {@code who} (null: this process's account). */
    private int submitAs(Identity who, String... args) {
        List<String> line = new ArrayList<>(List.of("submit", "--config", grid.toString(), "--scheduler",
                scheduler.url().toString()));
        line.addAll(List.of(args));
        CommandLine cli = UserCommands.commandLine("submit");
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        if (who != null) {
            ((SubmitCommand) cli.getSubcommands().get("submit").getCommand()).submitter = () -> who;
        }
        return cli.execute(line.toArray(String[]::new));
    }

    private String file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text).toString();
    }

    @Test
    void eachFileIsAJobAndEachPrintsItsId() throws IOException {
        String a = file("a.jdf", "&(executable = /bin/true)");
        String b = file("b.jdf", "&(executable = /bin/true)(count = 2)");

        assertThat(submit(a, b, a)).isZero();

        assertThat(out.toString().lines()).containsExactly("job 1 (job-1, NON_FIXED) QUEUED",
                "job 2 (job-2, NON_FIXED) QUEUED", "job 3 (job-3, NON_FIXED) QUEUED");
        assertThat(scheduler.submitted()).extracting(SubmitRequest::file).containsExactly(a, b, a);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void anInvalidOrRefusedFileIsNamedAndTheOthersStillGo() throws IOException {
        String good = file("good.jdf", "&(executable = /bin/true)");
        String invalid = file("invalid.jdf", "&(executable = /bin/true)(count = two)");
        String refused = file("refused.jdf", "&(executable = /bin/true)");
        scheduler.refuse(refused, "refused.jdf: no room for you");

        int status = submit(invalid, good, refused, dir.resolve("missing.jdf").toString(), good);

        assertThat(status).isEqualTo(Koala.BAD_INPUT);
        assertThat(out.toString().lines()).containsExactly("job 1 (job-1, NON_FIXED) QUEUED",
                "job 2 (job-2, NON_FIXED) QUEUED");
        assertThat(err.toString().lines()).hasSize(4);
        assertThat(err.toString().lines().toList().get(0)).startsWith(invalid + ":1:");
        assertThat(err.toString().lines()).contains("koala: refused.jdf: no room for you",
                dir.resolve("missing.jdf") + ": no such file",
                "koala: 3 of 5 files failed: " + invalid + " (invalid), " + refused + " (refused), "
                        + dir.resolve("missing.jdf") + " (unreadable)");
    }

    /** fs2 a remote site: an MPI job pinned to fs0 and fs2 is refused before it is sent, exit 2. */
    @Test
    void anMpiJobPinnedToSitesOnTwoNetworksIsNotSent() throws IOException {
        Files.writeString(grid, Files.readString(grid).replace("grid.sites = fs0, fs1", "grid.sites = fs0, fs1, fs2")
                + "site.fs2.sge.cell = fs2\nsite.fs2.ssh.host = fs2-head\nsite.fs2.ssh.key = /etc/koala/id_ed25519\n");
        String apart = file("apart.jdf", "+( &(runner = mpi)(resourceManagerContact = fs0)(executable = /bin/true) )\n"
                + " ( &(resourceManagerContact = fs2)(executable = /bin/true) )");

        assertThat(submit(apart)).isEqualTo(Koala.BAD_INPUT);

        assertThat(scheduler.submitted()).isEmpty();
        assertThat(err.toString().lines().toList().get(0)).startsWith(apart + ":2:31: runner = mpi: component 2 is "
                + "pinned to fs2 on fs2's private network, component 1 to fs0 on network grid (the grid's own)");
    }

    @Test
    void anUnreachableSchedulerStopsTheRestAndIsAFailure() throws IOException {
        String a = file("a.jdf", "&(executable = /bin/true)");
        String b = file("b.jdf", "&(executable = /bin/true)");
        scheduler.close();

        assertThat(submit(a, b)).isEqualTo(Koala.FAILURE);

        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines()).containsExactly(
                "koala: cannot reach " + scheduler.url() + ": connection refused (is the scheduler running? bin/koala scheduler)",
                "koala: 2 of 2 files failed: " + a + " (scheduler unreachable), " + b + " (not sent)");
    }

    @Test
    void oneFileFailingSaysSoOnceWithoutASummary() throws IOException {
        String invalid = file("invalid.jdf", "&(executable = /bin/true)(count = two)");

        assertThat(submit(invalid)).isEqualTo(Koala.BAD_INPUT);

        assertThat(err.toString().lines()).hasSize(1).allMatch(l -> l.startsWith(invalid + ":1:"));
    }

    @Test
    void withJsonEachJobIsADocument() throws IOException {
        String a = file("a.jdf", "&(executable = /bin/true)");

        assertThat(submit("--json", a)).isZero();

        assertThat(out.toString()).startsWith("{").contains("\"id\" : 1", "\"state\" : \"QUEUED\"");
    }

    @Test
    void aFrameworkJdfFromASystemAccountIsRefusedAsTheSchedulerRefusesItsJobs() throws IOException {
        // daemon's home is /usr/sbin: there was no runner directory to make there, and no instance to own
        String framework = file("framework.jdf", FRAMEWORK);

        assertThat(submitAs(new Identity("daemon", 1), framework)).isEqualTo(Koala.FAILURE);

        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines()).containsExactly("koala: daemon (uid 1) may not own a framework instance: "
                + "KOALA runs every job as its owner, and none as root or a system account (uid below 1000). Submit as "
                + "an ordinary user, or, as an admin, for one: koala submit --as USER ...");
    }

    @Test
    void rootSubmittingAFrameworkJdfForNobodyIsRefusedTheSameWay() throws IOException {
        String framework = file("framework.jdf", FRAMEWORK);

        assertThat(submitAs(new Identity("root", 0), framework)).isEqualTo(Koala.FAILURE);

        assertThat(err.toString()).startsWith("koala: root (uid 0) may not own a framework instance: ")
                .contains("koala submit --as USER");
    }

    private static final String FRAMEWORK = """
            +( &(jobType = framework)(name = demo)(role = master)(count = 1)(executable = /bin/sleep)
                (arguments = infinity)(provisioning = static) )
             ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = infinity) )
             ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = infinity) )
            """;
}
