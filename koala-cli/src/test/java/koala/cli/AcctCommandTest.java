package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.AccountingView;
import koala.api.scheduler.UsageRecord;
import koala.common.json.Json;
import koala.http.ApiError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code koala acct}: what it asks the scheduler, how it prints the records (the records are those
 * the scheduler's {@code AccountingTest} works out), and how it refuses bad input.
 */
class AcctCommandTest {
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    /** A job of two nodes of 4 cores and 8G for 90 s each, its launchers reporting 360 CPU seconds. */
    static final UsageRecord JOB = new UsageRecord(1, "job", "two", "alice", "worst-fit", "FINISHED", 0,
            "every component ended with status 0", T0, T0.plusSeconds(1), T0.plusSeconds(91), 90.0, List.of("fs0"), 2, 2,
            180.0, 180.0, null, 1.0, 720.0, 1440.0, 0.0, 360.0, 0.5, UsageRecord.FROM_LAUNCHERS, null, 0, 0, 0, 0, 0);
    /** An instance grown to 3 workers, one shrunk after 60 s, on 2-core nodes that asked for nothing. */
    static final UsageRecord INSTANCE = new UsageRecord(2, "instance", "demo", "alice", "ondemand", "FINISHED", null,
            "closed by its owner", T0, T0, T0.plusSeconds(130), 130.0, List.of("fs0"), 4, 4, 430.0, 180.0, 300.0, 0.6,
            860.0, 0.0, 0.0, 240.0, 0.4, UsageRecord.FROM_RUNNER, Map.of("master", new UsageRecord.RoleUsage(1, 130.0),
            "worker", new UsageRecord.RoleUsage(3, 300.0)), 2, 4, 1, 1, 0);
    /**
     * Cancelled while claiming, one node of two arrived; no cores configured, no CPU reported; written
     * before memory and GPUs were counted.
     */
    static final UsageRecord CANCELLED = new UsageRecord(3, "job", "two", "bob", "worst-fit", "CANCELLED", null,
            "cancelled by the user", T0, null, T0.plusSeconds(21), null, List.of("fs0"), 1, 1, 20.0, 0.0, null, 0.0,
            null, null, null, null, null, 0, 0, 0, 0, 0);

    private HttpServer server;
    private final List<String> asked = new ArrayList<>();
    private AccountingView answer = new AccountingView(List.of(JOB, INSTANCE, CANCELLED), 0);
    private int status = 200;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                asked.add(exchange.getRequestURI().toString());
                Object body = status == 200 ? answer : new ApiError("alice may not read bob's usage records: a user "
                        + "reads their own, an admin anyone's", "user");
                byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private int acct(String... args) {
        CommandLine cli = Koala.withErrorHandling(new CommandLine(new AcctCommand()));
        AcctCommand command = cli.getCommand();
        command.clock = InstantSource.fixed(T0);
        command.zone = ZoneId.of("Europe/Amsterdam");
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> line = new ArrayList<>(List.of("--scheduler", "http://127.0.0.1:" + server.getAddress().getPort()));
        line.addAll(List.of(args));
        return cli.execute(line.toArray(String[]::new));
    }

    @Test
    void aTableOfTheFiguresPeopleRead() {
        assertThat(acct()).isZero();

        assertThat(out.toString()).isEqualTo("""
                ID     KIND     NAME             OWNER      STATE     EXIT NODES PEAK SITES          NODE-S     CORE-S       GB-S     GPU-S     BUSY-S BUSY%      CPU-S  CPU% GROWS SHRINKS  ENDED
                1      job      two              alice      FINISHED     0     2    2 fs0             180.0      720.0     1440.0       0.0      180.0  100%      360.0   50%     -       -  2026-11-25T10:01:31Z
                2      instance demo             alice      FINISHED     -     4    4 fs0             430.0      860.0        0.0       0.0      180.0   60%      240.0   40%     2       1  2026-11-25T10:02:10Z
                3      job      two              bob        CANCELLED    ?     1    1 fs0              20.0          ?          ?         ?        0.0    0%          ?     ?     -       -  2026-11-25T10:00:21Z
                """);
        assertThat(asked).containsExactly("/accounting?limit=10000");
    }

    @Test
    void jsonLinesAsTheAccountingFileHasThem() throws IOException {
        assertThat(acct("--json")).isZero();

        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(2)).startsWith("{\"id\":3,\"kind\":\"job\",\"name\":\"two\",\"owner\":\"bob\"")
                .contains("\"cpuSeconds\":null");
        assertThat(Json.mapper().readValue(lines.get(1), UsageRecord.class)).isEqualTo(INSTANCE);
    }

    @Test
    void csvWithEveryFieldOfTheRecord() {
        assertThat(acct("--csv")).isZero();

        List<String> lines = out.toString().lines().toList();
        assertThat(lines.get(0)).isEqualTo("id,kind,name,owner,policy,state,exitStatus,reason,submittedAt,startedAt,"
                + "endedAt,elapsedSeconds,sites,nodes,peakNodes,nodeSeconds,busyNodeSeconds,reportedNodeSeconds,"
                + "busyEfficiency,coreSeconds,memoryGbSeconds,gpuSeconds,cpuSeconds,cpuEfficiency,cpuFrom,roles,grows,"
                + "grownNodes,shrinks,"
                + "shrunkNodes,refusedGrows");
        assertThat(lines.get(2)).isEqualTo("2,instance,demo,alice,ondemand,FINISHED,,closed by its owner,"
                + "2026-11-25T10:00:00Z,2026-11-25T10:00:00Z,2026-11-25T10:02:10Z,130,fs0,4,4,430,180,300,0.6,860,0,0,240,"
                + "0.4,runner samples of workers,master=1:130 worker=3:300,2,4,1,1,0");
        assertThat(lines.get(3)).startsWith("3,job,two,bob,worst-fit,CANCELLED,,cancelled by the user,"
                + "2026-11-25T10:00:00Z,,2026-11-25T10:00:21Z,,fs0,1,1,20,0,,0,,,,,,,,0,0,0,0,0");
        assertThat(out.toString()).contains("\r\n");
    }

    /**
     * Per owner: alice's job (180 node-s, 720 core-s, 1440 GB-s) and instance (430, 860) make 610
     * node-seconds and 1580 core-seconds; bob's cancelled job's core-seconds are not known and add
     * nothing.
     */
    @Test
    void byUserAddsTheRecordsUpPerOwner() {
        assertThat(acct("--by-user")).isZero();

        assertThat(out.toString()).isEqualTo("""
                USER           JOBS INSTANCES       NODE-S       CORE-S         GB-S      GPU-S
                alice             1         1        610.0       1580.0       1440.0        0.0
                bob               1         0         20.0          0.0          0.0        0.0
                """);
        out.getBuffer().setLength(0);
        assertThat(acct("--by-user", "--json")).isZero();
        assertThat(out.toString().lines().toList()).containsExactly(
                "{\"owner\":\"alice\",\"jobs\":1,\"instances\":1,\"nodeSeconds\":610.0,\"coreSeconds\":1580.0,"
                        + "\"memoryGbSeconds\":1440.0,\"gpuSeconds\":0.0}",
                "{\"owner\":\"bob\",\"jobs\":1,\"instances\":0,\"nodeSeconds\":20.0,\"coreSeconds\":0.0,"
                        + "\"memoryGbSeconds\":0.0,\"gpuSeconds\":0.0}");
        out.getBuffer().setLength(0);
        assertThat(acct("--by-user", "--csv")).isZero();
        assertThat(out.toString()).isEqualTo("owner,jobs,instances,nodeSeconds,coreSeconds,memoryGbSeconds,gpuSeconds\r\n"
                + "alice,1,1,610,1580,1440,0\r\n" + "bob,1,0,20,0,0,0\r\n");
    }

    /** The filters go to the scheduler: {@code --since 2h} at 10:00 UTC is 08:00 UTC. */
    @Test
    void theFiltersAreAskedOfTheScheduler() {
        assertThat(acct("--user", "bob", "--since", "2h", "--instance", "2", "--limit", "5")).isZero();

        assertThat(asked).containsExactly("/accounting?limit=5&user=bob&since=2026-11-25T08:00:00Z&instance=2");
    }

    @Test
    void sinceTakesADateATimeOrATimeBackFromNow() {
        ZoneId amsterdam = ZoneId.of("Europe/Amsterdam");
        assertThat(AcctCommand.since("2026-11-25", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-24T23:00:00Z"));
        assertThat(AcctCommand.since("2026-11-25T08:00", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-25T07:00:00Z"));
        assertThat(AcctCommand.since("2026-11-25T08:00:00Z", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-25T08:00:00Z"));
        assertThat(AcctCommand.since("2026-11-25T08:00+01:00", T0, amsterdam))
                .isEqualTo(Instant.parse("2026-11-25T07:00:00Z"));
        assertThat(AcctCommand.since("90s", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-25T09:58:30Z"));
        assertThat(AcctCommand.since("30m", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-25T09:30:00Z"));
        assertThat(AcctCommand.since("7d", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-18T10:00:00Z"));
        assertThat(AcctCommand.since("2w", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-11T10:00:00Z"));
        assertThat(AcctCommand.since("PT2H", T0, amsterdam)).isEqualTo(Instant.parse("2026-11-25T08:00:00Z"));
    }

    @Test
    void badInputIsExitStatusTwoNamingTheOption() {
        assertThat(acct("--since", "yesterday")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).isEqualTo("koala: --since: 'yesterday' is neither a date or time (2026-11-25, "
                + "2026-11-25T08:00, 2026-11-25T08:00:00Z) nor a time back from now (90s, 30m, 2h, 7d, 2w, PT2H)\n");
        for (String[] bad : List.of(new String[] {"--since", "2026-13-01"}, new String[] {"--since", "-2h"},
                new String[] {"--since", "PT-2H"}, new String[] {"--json", "--csv"}, new String[] {"--limit", "0"},
                new String[] {"--instance", "x"}, new String[] {"--user", " "})) {
            err.getBuffer().setLength(0);
            assertThat(acct(bad)).as(String.join(" ", bad)).isEqualTo(Koala.BAD_INPUT);
            assertThat(err.toString()).as(String.join(" ", bad)).contains(bad[0]);
        }
        assertThat(asked).as("nothing was asked of the scheduler").isEmpty();
    }

    @Test
    void anotherUsersRecordsAreRefusedByTheScheduler() {
        status = 403;
        assertThat(acct("--user", "bob")).isEqualTo(Koala.FAILURE);
        assertThat(err.toString()).isEqualTo("koala: alice may not read bob's usage records: a user reads their own, an "
                + "admin anyone's\n");
    }

    @Test
    void recordsLeftOutByTheLimitAreSaid() {
        answer = new AccountingView(List.of(CANCELLED), 2);
        assertThat(acct("--limit", "1")).isZero();
        assertThat(err.toString()).isEqualTo("koala: 2 older records that match were left out (--limit 1); narrow with "
                + "--since, or raise --limit\n");
    }

    @Test
    void theHelpExplainsTheFigures() {
        String help = Koala.commandLine().getSubcommands().get("acct").getUsageMessage();
        assertThat(help).contains("--since=WHEN", "--instance=ID", "granted node-seconds", "seff's CPU efficiency",
                "CORE-S  granted node-seconds times each node's cores", "--by-user",
                "?       unknown");
    }

    /** The help's percent signs are escaped: picocli formats it, and warned at every start of the command line. */
    @Test
    void theHelpFormatsWithoutAWarning() {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        String help;
        System.setErr(new java.io.PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            help = Koala.commandLine().getSubcommands().get("acct").getUsageMessage();
        } finally {
            System.setErr(stderr);
        }
        assertThat(warnings.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
        assertThat(help).contains("  BUSY%   BUSY-S over granted node-seconds", "  CPU%    CPU-S over the core-seconds")
                .doesNotContain("%%");
    }
}
