package koala.cli;

import java.io.PrintWriter;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.api.scheduler.AccountingView;
import koala.http.ApiException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code koala acct}: the usage records of ended jobs and framework instances, from the scheduler's
 * accounting file ({@code GET /accounting}), as a table, JSON lines or CSV.
 */
@Command(name = "acct", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Usage records of jobs and framework instances that ended (yours; an admin's: everyone's), "
                + "oldest first, in the manner of Slurm's sacct and seff. The scheduler writes one when a job or "
                + "instance ends, to its accounting file, which outlives its retention of ended jobs.", ""},
        footer = {"", "The figures:",
                "  NODES   nodes granted over its life (one placed again counts once);",
                "          PEAK, the most it held at once",
                "  NODE-S  granted node-seconds: each node from when its pilot runs and",
                "          calls back (waiting for the rest of a co-allocated job counts,",
                "          a pilot queued in SGE does not) until its command ended, KOALA",
                "          gave it back, or its pilot was found gone",
                "  CORE-S  granted node-seconds times each node's cores: what its",
                "          component asked for (cores =), or site.S.node.cores for a",
                "          node that asked for nothing; GB-S the memory each node asked",
                "          for (memory =, GB of 1024 MiB), GPU-S its GPUs (gpus =)",
                "  BUSY-S  a job: node-seconds its commands ran; an instance: worker",
                "          node-seconds its runner reported the worker busy (time the",
                "          runner did not report counts as not busy)",
                "  BUSY%%   BUSY-S over granted node-seconds (an instance: its workers')",
                "  CPU-S   CPU seconds: a job's as its nodes' launchers reported at exit",
                "          (all of them, else unknown); an instance's workers', from the",
                "          utilization its runner reports each second",
                "  CPU%%    CPU-S over the core-seconds of the same nodes (CORE-S):",
                "          seff's CPU efficiency",
                "  GROWS   an instance's granted grows, its initial deployment's included;",
                "          SHRINKS, times it gave nodes back or had them taken back",
                "  EXIT    a job's: 0 if every command ended 0, else the first other",
                "          status (-124: stopped past its maxWallTime)",
                "  ?       unknown (not measured, not reported); - does not apply",
                "",
                "--json and --csv give every field (docs/user-guide.md#accounting).",
                "--by-user adds the records up per owner: jobs, instances, NODE-S,",
                "CORE-S, GB-S, GPU-S (a figure a record does not know adds nothing).",
                "Exit status: 0 success, 1 failure (the scheduler unreachable, another",
                "user's records), 2 bad input."})
final class AcctCommand implements Callable<Integer> {
    @Mixin
    GridOptions grid;

    @Option(names = "--user", paramLabel = "USER",
            description = "only USER's records (admins; a user sees only their own)")
    String user;

    @Option(names = "--since", paramLabel = "WHEN", description = "only those that ended at or after WHEN: a date "
            + "(2026-11-25, from midnight here), a time (2026-11-25T08:00, here; 2026-11-25T08:00:00Z) or a time "
            + "back from now (90s, 30m, 2h, 7d, 2w, or ISO-8601 as PT2H)")
    String since;

    @Option(names = "--instance", paramLabel = "ID", description = "only framework instance ID's record")
    Long instance;

    @Option(names = "--limit", paramLabel = "N", description = "at most the N newest records that match (default: "
            + "${DEFAULT-VALUE}, at most 20000)", defaultValue = "10000")
    int limit;

    @Option(names = "--by-user", description = "add the records that match up per owner (Slurm's sreport by user): "
            + "jobs, instances, node-, core-, GB- and GPU-seconds")
    boolean byUser;

    @Option(names = "--json", description = "print each record as a line of JSON, as the accounting file has it")
    boolean json;

    @Option(names = "--csv", description = "print CSV: a header, then a line per record with every field")
    boolean csv;

    @Spec
    CommandSpec spec;

    /** What "now" and "here" are for {@code --since}; a test sets them. */
    InstantSource clock = InstantSource.system();
    ZoneId zone = ZoneId.systemDefault();

    @Override
    public Integer call() {
        if (json && csv) {
            throw new IllegalArgumentException("--json and --csv: choose one");
        }
        if (limit < 1 || limit > 20_000) {
            throw new IllegalArgumentException("--limit: " + limit + " is out of range: 1 to 20000");
        }
        if (user != null && user.isBlank()) {
            throw new IllegalArgumentException("--user: empty; name a user, or leave it out for your own records");
        }
        Instant from = since == null ? null : since(since, clock.instant(), zone);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        AccountingView view;
        try {
            view = grid.client().accounting(user, from, instance, limit);
        } catch (ApiException e) {
            err.println("koala: " + JobCommands.reason(e));
            err.flush();
            return JobCommands.status(e);
        }
        if (byUser) {
            List<UsageReport.UserUsage> users = UsageReport.byUser(view.records());
            if (json) {
                UsageReport.userJsonLines(users, out);
            } else if (csv) {
                UsageReport.userCsv(users, out);
            } else {
                UsageReport.userTable(users, out);
            }
        } else if (json) {
            UsageReport.jsonLines(view.records(), out);
        } else if (csv) {
            UsageReport.csv(view.records(), out);
        } else {
            UsageReport.table(view.records(), out);
        }
        out.flush();
        if (view.leftOut() > 0) {
            err.printf("koala: %d older records that match were left out (--limit %d); narrow with --since, or raise "
                    + "--limit%n", view.leftOut(), limit);
            err.flush();
        }
        return 0;
    }

    private static final Pattern BACK = Pattern.compile("(\\d{1,9})\\s*(s|m|h|d|w)");

    /**
     * The instant {@code --since} names: a time back from {@code now} (90s, 30m, 2h, 7d, 2w, or an
     * ISO-8601 duration), an instant or offset time, or a date or local time in {@code zone}.
     */
    static Instant since(String text, Instant now, ZoneId zone) {
        String t = text.strip();
        Matcher back = BACK.matcher(t.toLowerCase(Locale.ROOT));
        try {
            if (back.matches()) {
                long n = Long.parseLong(back.group(1));
                return now.minus(switch (back.group(2)) {
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    case "d" -> Duration.ofDays(n);
                    default -> Duration.ofDays(7 * n);
                });
            } else if (t.startsWith("P") || t.startsWith("p")) {
                Duration d = Duration.parse(t);
                if (!d.isNegative()) {
                    return now.minus(d);
                }
            } else if (t.contains("T") && (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:?\\d\\d"))) {
                return OffsetDateTime.parse(t.replaceFirst("([+-]\\d\\d)(\\d\\d)$", "$1:$2")).toInstant();
            } else if (t.contains("T")) {
                return LocalDateTime.parse(t).atZone(zone).toInstant();
            } else {
                return LocalDate.parse(t).atStartOfDay(zone).toInstant();
            }
        } catch (DateTimeException | ArithmeticException e) {
            // said below, with what would do
        }
        throw new IllegalArgumentException("--since: '" + text + "' is neither a date or time (2026-11-25, "
                + "2026-11-25T08:00, 2026-11-25T08:00:00Z) nor a time back from now (90s, 30m, 2h, 7d, 2w, PT2H)");
    }
}
