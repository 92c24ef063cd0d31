package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import koala.api.scheduler.SchedulerProcess;
import koala.common.json.Json;
import koala.http.Endpoint;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code koala config check FILE}: every problem at its line on standard error, a summary, exit 0 or 2. */
class ConfigCheckCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** {@code koala ARGS}; {@code config check} asks no scheduler of the machine's (its socket is this test's). */
    private int koala(String... args) {
        CommandLine cli = Koala.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        if (all.size() > 2 && all.subList(0, 2).equals(List.of("config", "check")) && !all.contains("--socket")) {
            all.addAll(2, List.of("--socket", dir.resolve("no-scheduler.sock").toString()));
        }
        return cli.execute(all.toArray(String[]::new));
    }

    /**
     * A scheduler started under nohup says so on its socket: the check of a clean file warns that
     * SIGHUP will not reload it, naming the scheduler's pid and what to do instead, and still exits 0;
     * one that reloads adds nothing, and --json gives what the scheduler said.
     */
    @Test
    void aRunningSchedulerThatIgnoresSighupIsNamedWithWhatToDoInstead() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n");
        String warning = "SIGHUP will not reload the configuration (kill -HUP and systemctl reload do nothing): ...";
        Path socket = dir.resolve("scheduler.sock");
        AtomicReference<SchedulerProcess> answer = new AtomicReference<>(new SchedulerProcess(4242, false, warning));
        JsonHttpServer scheduler = new JsonHttpServer(List.of(Endpoint.unix("unix", socket)), 2)
                .route("GET", "/scheduler", r -> Response.ok(answer.get()));
        scheduler.start();
        try {
            assertThat(koala("config", "check", "--socket", socket.toString(), file.toString())).isZero();
            assertThat(err.toString()).isEqualTo("warning: the running scheduler (pid 4242): " + warning + "\n");
            assertThat(out.toString()).isEqualTo(file + ": 1 site, 2 keys, no problems\n");

            err.getBuffer().setLength(0);
            out.getBuffer().setLength(0);
            assertThat(koala("config", "check", "--socket", socket.toString(), "--json", file.toString())).isZero();
            JsonNode said = Json.mapper().readTree(out.toString()).get("scheduler");
            assertThat(said.get("pid").asLong()).isEqualTo(4242);
            assertThat(said.get("reloadsOnHangup").asBoolean()).isFalse();

            answer.set(new SchedulerProcess(4242, true, ""));
            out.getBuffer().setLength(0);
            assertThat(koala("config", "check", "--socket", socket.toString(), file.toString())).isZero();
            assertThat(err.toString()).isEmpty();

            // a standby on this host passes the question on: the answer is the leader's, on another host
            answer.set(new SchedulerProcess(5151, false, warning, "head1.example.org:5151", 4, null));
            out.getBuffer().setLength(0);
            assertThat(koala("config", "check", "--socket", socket.toString(), file.toString())).isZero();
            assertThat(err.toString()).as("no word of a process on another host").isEmpty();
        } finally {
            scheduler.close();
        }
    }

    @Test
    void aCleanFileExitsZeroWithItsSummary() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0, fs1\nsite.fs0.sge.cell = fs0\n"
                + "site.fs1.sge.cell = fs1\nscheduler.placement = cluster-minimization\n");

        assertThat(koala("config", "check", file.toString())).isZero();

        assertThat(out.toString()).isEqualTo(file + ": 2 sites, 4 keys, no problems\n");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aBadFileExitsTwoNamingEachProblemAtItsLine() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), """
                grid.sites = fs0, fs1
                site.fs0.sge.cel = fs0
                site.fs1.sge.cell = fs1
                scheduler.claimTimout = 90
                scheduler.claimTimeout = 90x
                scheduler.port = http
                site.fs2.sge.cell = fs2
                """);

        assertThat(koala("config", "check", file.toString())).isEqualTo(Koala.BAD_INPUT);

        assertThat(err.toString().lines()).containsExactly(
                file + ":1: site.fs0.sge.cell: missing (fs0 is listed in grid.sites)",
                file + ":2: site.fs0.sge.cel: unknown key; did you mean site.fs0.sge.cell?",
                file + ":4: scheduler.claimTimout: unknown key; did you mean scheduler.claimTimeout?",
                file + ":5: scheduler.claimTimeout = '90x': not a number of seconds",
                file + ":6: scheduler.port = 'http': not a whole number",
                file + ":7: site.fs2.sge.cell: site fs2 is not listed in grid.sites (fs0, fs1): list it there, or this "
                        + "key is ignored");
        assertThat(out.toString()).isEqualTo(file + ": 2 sites, 7 keys, 6 problems\n");
    }

    @Test
    void asJsonEveryProblemIsData() throws Exception {
        Path file = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n"
                + "site.fs0.node.cout = 16\n");

        assertThat(koala("config", "check", "--json", file.toString())).isEqualTo(Koala.BAD_INPUT);

        JsonNode report = Json.mapper().readTree(out.toString());
        assertThat(report.get("sites").asInt()).isEqualTo(1);
        assertThat(report.get("keys").asInt()).isEqualTo(3);
        JsonNode problem = report.get("problems").get(0);
        assertThat(problem.get("line").asInt()).isEqualTo(3);
        assertThat(problem.get("key").asText()).isEqualTo("site.fs0.node.cout");
        assertThat(problem.get("detail").asText()).isEqualTo("site.fs0.node.cout: unknown key; did you mean "
                + "site.fs0.node.count?");
    }

    @Test
    void aMissingFileIsBadInput() {
        assertThat(koala("config", "check", dir.resolve("absent").toString())).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).isEqualTo(dir.resolve("absent") + ": no such file\n");
    }

    @Test
    void itsHelpSaysWhatItFindsAndThatConfigStillShowsTheSettings() {
        assertThat(koala("config", "check", "--help")).isZero();
        assertThat(out.toString()).contains("Usage: koala config check [-hV] [--json] [--socket=PATH] [FILE]")
                .contains("did you mean").contains("SIGHUP");

        out.getBuffer().setLength(0);
        assertThat(koala("config", "--help")).isZero();
        assertThat(out.toString()).contains("check").contains("--site");
    }

    /** Every key the package's commented template names, uncommented, is a known key. */
    @Test
    void thePackagedTemplateNamesOnlyKnownKeys() throws Exception {
        String template = Files.readString(Path.of("..", "koala-dist", "src", "root", "etc", "koala", "grid.properties"));
        String uncommented = template.lines().map(l -> l.matches("#[a-z][A-Za-z0-9.]* = .*") ? l.substring(1) : l)
                .collect(Collectors.joining("\n"));
        Path file = Files.writeString(dir.resolve("template.properties"), uncommented);

        koala("config", "check", file.toString());

        assertThat(err.toString().lines()).isNotEmpty().noneMatch(l -> l.contains("unknown key") || l.contains("not listed"));
    }
}
