package koala.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import koala.api.scheduler.SchedulerProcess;
import koala.common.json.Json;
import koala.grid.ConfigCheck;
import koala.grid.ConfigProblem;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.http.JsonHttpClient;
import koala.scheduler.config.SchedulerConfigCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Check a grid configuration before installing it: every problem at once, each as FILE:LINE: "
                + "KEY: REASON on standard error, then a summary (N sites, M keys) on standard output. Exit 0 when "
                + "the file is clean, 2 when it has a problem.",
                "",
                "It finds unknown keys, with the nearest known one (\"site.fs0.sge.cel: unknown key; did you mean "
                        + "site.fs0.sge.cell?\"); a key given twice; values that do not parse (a port that is not a "
                        + "number, a duration like 90x, a size, yes/no, a log level); a site listed in grid.sites "
                        + "without its site.S.sge.cell; a remote site (site.S.ssh.host) without its site.S.ssh.key, "
                        + "or naming a key file that is not there; keys of a site that grid.sites does not list; "
                        + "Close-to-Files entries of files not in 'files'; and whatever the scheduler would refuse "
                        + "at start: an unknown placement policy, scheduler.retention below scheduler.keepEnded, bad "
                        + "scheduler.arbitration.* values, each listed site's site.S.provisioning.* defaults.",
                "",
                "The scheduler runs the same check when it gets SIGHUP (systemctl reload koala-scheduler) and "
                        + "refuses a file with any problem whole. Every key: the admin guide's \"Configuration "
                        + "reference\".",
                "",
                "When a scheduler answers on its socket, it is asked whether SIGHUP reloads it: one started with "
                        + "SIGHUP ignored (under nohup) never reloads, and that is said on standard error, with what "
                        + "to do instead; the exit status is still the file's."},
        footer = {"", "Examples:", "  koala config check /etc/koala/grid.properties.new",
                "  koala config check --json grid.properties | jq '.problems[].line'"})
final class ConfigCheckCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "FILE", description = "the file to check (default: the grid "
            + "configuration the other commands read: $KOALA_CONFIG, KOALA_HOME/grid.properties or "
            + "/etc/koala/grid.properties)")
    Path file;

    @Option(names = "--json", description = "print the file, its sites and keys and every problem (file, line, key, "
            + "detail) as one JSON object on standard output")
    boolean json;

    @Option(names = "--socket", paramLabel = "PATH", description = "the running scheduler's socket, asked whether "
            + "SIGHUP reloads it (default: scheduler.socket of the grid configuration the other commands read)")
    Path socket;

    @Spec
    CommandSpec spec;

    /** How long the running scheduler has to answer: its answer never waits for its loop. */
    private static final Duration ASK_FOR = Duration.ofSeconds(5);

    @Override
    public Integer call() {
        Path checked = file != null ? file : KoalaHome.gridConfig();
        ConfigCheck.Report report = SchedulerConfigCheck.check(checked, KoalaHome.dir());
        Optional<SchedulerProcess> running = running();
        if (json) {
            spec.commandLine().getOut().println(Json.pretty(asJson(report, running)));
        } else {
            report.problems().forEach(spec.commandLine().getErr()::println);
            running.filter(p -> !p.reloadsOnHangup()).ifPresent(p -> spec.commandLine().getErr()
                    .println(hangupWarning(p)));
            spec.commandLine().getErr().flush();
            spec.commandLine().getOut().println(report.summary());
        }
        return report.clean() ? 0 : Koala.BAD_INPUT;
    }

    private static String hangupWarning(SchedulerProcess p) {
        return "warning: the running scheduler (pid " + p.pid() + "): " + p.hangupWarning();
    }

    /**
     * The scheduler running on this host, as it says of itself; none when none answers (none runs,
     * the socket is another's, or the scheduler is older than this question), or when the answer is of
     * another host's (a standby here passed the question on to the leader): the file is checked alone.
     */
    private Optional<SchedulerProcess> running() {
        try {
            Path at = socket != null ? socket : GridConfig.load(KoalaHome.gridConfig()).schedulerSocket();
            if (!Files.exists(at)) {
                return Optional.empty();
            }
            SchedulerProcess answered = JsonHttpClient.unixSocket(at, ASK_FOR).get("/scheduler", SchedulerProcess.class);
            String here = java.net.InetAddress.getLocalHost().getHostName() + ":";
            return Optional.of(answered).filter(p -> p.name() == null || p.name().startsWith(here));
        } catch (RuntimeException | java.io.IOException e) {
            return Optional.empty();
        }
    }

    private static Map<String, Object> asJson(ConfigCheck.Report report, Optional<SchedulerProcess> running) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", report.file().toString());
        out.put("sites", report.sites());
        out.put("keys", report.keys());
        List<Map<String, Object>> problems = report.problems().stream().map(ConfigCheckCommand::asJson).toList();
        out.put("problems", problems);
        out.put("scheduler", running.orElse(null));
        return out;
    }

    private static Map<String, Object> asJson(ConfigProblem p) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", p.file().toString());
        out.put("line", p.line());
        out.put("key", p.key());
        out.put("detail", p.detail());
        return out;
    }
}
