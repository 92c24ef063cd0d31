package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import koala.common.json.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code koala validate}: what it prints and its exit status, on the testbed grid fs0 16, fs1 8, fs2 8. */
class ValidateCommandTest {
    private static final Path EXAMPLES = Path.of("..", "jdf-examples");

    @TempDir
    Path dir;

    private Path grid;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void testbedGrid() throws Exception {
        grid = dir.resolve("grid.properties");
        Files.writeString(grid, """
                grid.sites = fs0, fs1, fs2
                site.fs0.sge.cell = fs0
                site.fs0.node.count = 16
                site.fs1.sge.cell = fs1
                site.fs1.node.count = 8
                site.fs2.sge.cell = fs2
                site.fs2.node.count = 8
                """);
    }

    private int koala(String... args) {
        CommandLine cli = Koala.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private Path file(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private List<String> lines(StringWriter w) {
        return w.toString().lines().toList();
    }

    @Test
    void validFilesPrintOkWithKindComponentsAndNodesAndExitZero() {
        int status = koala("validate", "--config", grid.toString(), EXAMPLES.resolve("non-fixed.jdf").toString(),
                EXAMPLES.resolve("hello.jdf").toString(), EXAMPLES.resolve("flexible.jdf").toString());

        assertThat(status).isZero();
        assertThat(lines(out)).containsExactly(
                EXAMPLES.resolve("non-fixed.jdf") + ": ok (NON_FIXED, 2 components, 12 nodes)",
                EXAMPLES.resolve("hello.jdf") + ": ok (NON_FIXED, 1 component, 1 node)",
                EXAMPLES.resolve("flexible.jdf") + ": ok (FLEXIBLE, 1 component, 24 nodes)");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void everyExampleIsValidAndEveryInvalidOneIsNot() throws Exception {
        List<String> valid = new ArrayList<>(List.of("validate", "--config", grid.toString()));
        List<String> invalid = new ArrayList<>(valid);
        try (Stream<Path> files = Files.list(EXAMPLES); Stream<Path> bad = Files.list(EXAMPLES.resolve("invalid"))) {
            files.filter(f -> f.toString().endsWith(".jdf")).forEach(f -> valid.add(f.toString()));
            bad.filter(f -> f.toString().endsWith(".jdf")).forEach(f -> invalid.add(f.toString()));
        }
        assertThat(koala(valid.toArray(String[]::new))).isZero();
        assertThat(lines(out)).hasSize(valid.size() - 3).allMatch(l -> l.contains(": ok ("));

        assertThat(koala(invalid.toArray(String[]::new))).isEqualTo(Koala.BAD_INPUT);
        assertThat(lines(err)).contains(
                EXAMPLES.resolve("invalid/unknown-attribute.jdf") + ":4:3: unknown attribute 'cont'; did you mean 'count'?");
    }

    @Test
    void errorsGoToStandardErrorAsFileLineColumnMessageAndTheExitIsTwo() throws Exception {
        Path good = file("good.jdf", "&(executable = /bin/hostname)(count = 2)");
        Path bad = file("bad.jdf", "&(executable = /bin/hostname)\n (count = 40)\n (resourceManagerContact = fs9)");

        int status = koala("validate", "--config", grid.toString(), good.toString(), bad.toString());

        assertThat(status).isEqualTo(Koala.BAD_INPUT);
        assertThat(lines(out)).containsExactly(good + ": ok (NON_FIXED, 1 component, 2 nodes)");
        assertThat(lines(err)).containsExactly(
                bad + ":3:28: resourceManagerContact: no cluster 'fs9' (clusters: fs0, fs1, fs2)");
    }

    /**
     * fs2 a remote site (its nodes on its own network behind its head node): an MPI job pinned to fs0 and
     * fs2 could never start, so it is bad input, named where fs2 is; pinned to fs0 and fs1 it is valid.
     */
    @Test
    void anMpiJobPinnedToSitesOnTwoNetworksIsBadInput() throws Exception {
        Files.writeString(grid, "site.fs2.ssh.host = fs2-head\nsite.fs2.ssh.key = /etc/koala/id_ed25519\n",
                java.nio.file.StandardOpenOption.APPEND);
        Path apart = file("apart.jdf", """
                +( &(runner = mpi)(resourceManagerContact = fs0)(count = 2)(executable = /bin/true) )
                 ( &(resourceManagerContact = fs2)(count = 2)(executable = /bin/true) )
                """);
        Path together = file("together.jdf", """
                +( &(runner = mpi)(resourceManagerContact = fs0)(count = 2)(executable = /bin/true) )
                 ( &(resourceManagerContact = fs1)(count = 2)(executable = /bin/true) )
                """);

        int status = koala("validate", "--config", grid.toString(), apart.toString(), together.toString());

        assertThat(status).isEqualTo(Koala.BAD_INPUT);
        assertThat(lines(out)).containsExactly(together + ": ok (FIXED, 2 components, 4 nodes)");
        assertThat(lines(err)).containsExactly(apart + ":2:31: runner = mpi: component 2 is pinned to fs2 on fs2's "
                + "private network, component 1 to fs0 on network grid (the grid's own): the nodes of one MPI world "
                + "must reach each other, so its components stay on one network and this job could never start; pin "
                + "them to clusters of one network, or leave KOALA to choose");
    }

    @Test
    void afterAHundredErrorsOfAFileTheRestAreOnlyCounted() throws Exception {
        // one count, then the same attribute 300,000 times more: 300,000 errors, the first 100 printed
        Path bad = file("repeated.jdf", "&(executable = /bin/true)(count = 1)" + "(count = 1)".repeat(300_000));

        int status = koala("validate", "--config", grid.toString(), bad.toString());

        assertThat(status).isEqualTo(Koala.BAD_INPUT);
        List<String> errors = lines(err);
        assertThat(errors).hasSize(101);
        assertThat(errors.get(0)).isEqualTo(bad + ":1:38: count: given twice in one request (first at 1:27)");
        assertThat(errors.get(99)).isEqualTo(bad + ":1:1127: count: given twice in one request (first at 1:27)");
        assertThat(errors.get(100)).isEqualTo(bad + ": ... and 299,900 more errors");
    }

    @Test
    void aMissingOrUnreadableFileIsBadInputWithAClearMessage() throws Exception {
        Path absent = dir.resolve("absent.jdf");
        Path binary = dir.resolve("binary.jdf");
        Files.write(binary, new byte[] {'&', (byte) 0xff, (byte) 0xfe});

        int status = koala("validate", "--config", grid.toString(), absent.toString(), dir.toString(), binary.toString());

        assertThat(status).isEqualTo(Koala.BAD_INPUT);
        assertThat(lines(err)).containsExactly(absent + ": no such file",
                dir + ": is a directory, not a job description file", binary + ": not UTF-8 text");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void withoutAGridConfigurationOnlySyntaxAndValuesAreCheckedAndANoteSaysSo() throws Exception {
        Path big = file("big.jdf", "&(executable = /bin/hostname)(count = 400)(resourceManagerContact = anywhere)");
        Path none = dir.resolve("none.properties");

        int status = koala("validate", "--config", none.toString(), big.toString());

        assertThat(status).isZero();
        assertThat(lines(out)).containsExactly(big + ": ok (FIXED, 1 component, 400 nodes)");
        assertThat(lines(err)).containsExactly("koala: note: no grid configuration at " + none
                + "; checking syntax and values only, not the clusters (--config FILE to choose one)");
    }

    @Test
    void aBrokenGridConfigurationIsBadInput() throws Exception {
        Path broken = file("broken.properties", "grid.sites = fs0\n");
        Path job = file("job.jdf", "&(executable = /bin/hostname)");

        assertThat(koala("validate", "--config", broken.toString(), job.toString())).isEqualTo(Koala.BAD_INPUT);
        assertThat(lines(err)).containsExactly("koala: " + broken + ": site.fs0.sge.cell: missing");
    }

    @Test
    void jsonPrintsTheParsedJobsAsAList() throws Exception {
        int status = koala("validate", "--json", "--config", grid.toString(), EXAMPLES.resolve("semi-fixed.jdf").toString());

        assertThat(status).isZero();
        JsonNode jobs = Json.mapper().readTree(out.toString());
        assertThat(jobs).hasSize(1);
        JsonNode job = jobs.get(0);
        assertThat(job.get("name").asText()).isEqualTo("semi-fixed-demo");
        assertThat(job.get("kind").asText()).isEqualTo("SEMI_FIXED");
        assertThat(job.get("priority").asText()).isEqualTo("high");
        assertThat(job.get("components").get(0).get("cluster").asText()).isEqualTo("fs0");
        assertThat(job.get("components").get(1).get("arguments").get(1).asText())
                .isEqualTo("echo \"a doubled quote\" is one quote inside a string");
    }

    @Test
    void dashReadsStandardInput() {
        InputStream stdin = System.in;
        System.setIn(new ByteArrayInputStream("+(&(executable=/bin/true)(count=3))(&(executable=/bin/true))"
                .getBytes(StandardCharsets.UTF_8)));
        try {
            assertThat(koala("validate", "--config", grid.toString(), "-")).isZero();
        } finally {
            System.setIn(stdin);
        }
        assertThat(lines(out)).containsExactly("-: ok (NON_FIXED, 2 components, 4 nodes)");
    }

    @Test
    void noFileIsAUsageError() {
        assertThat(koala("validate")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("Missing required parameter: 'FILE'");
    }
}
