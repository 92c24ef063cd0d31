package koala.cli;

import java.io.PrintWriter;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import koala.api.scheduler.UsageRecord;
import koala.common.json.Json;

/**
 * How {@code koala acct} prints usage records: a table of the figures people read (unknown as
 * {@code ?}, what does not apply as {@code -}), JSON lines as the accounting file has them, or CSV
 * with every field of the record, in the record's order.
 */
final class UsageReport {
    private static final String ROW = "%-6s %-8s %-16s %-10s %-9s %4s %5s %4s %-10s %10s %10s %10s %9s %10s %5s %10s"
            + " %5s %5s %7s  %s%n";
    private static final String USER_ROW = "%-12s %6s %9s %12s %12s %12s %10s%n";

    private UsageReport() {
    }

    static void table(List<UsageRecord> records, PrintWriter out) {
        if (records.isEmpty()) {
            out.println("no usage records");
            return;
        }
        out.printf(ROW, "ID", "KIND", "NAME", "OWNER", "STATE", "EXIT", "NODES", "PEAK", "SITES", "NODE-S", "CORE-S",
                "GB-S", "GPU-S", "BUSY-S", "BUSY%", "CPU-S", "CPU%", "GROWS", "SHRINKS", "ENDED");
        for (UsageRecord r : records) {
            boolean instance = UsageRecord.INSTANCE.equals(r.kind());
            out.printf(ROW, r.id(), r.kind(), cut(r.name(), 16), r.owner() == null ? "-" : cut(r.owner(), 10),
                    r.state(), instance ? "-" : known(r.exitStatus()), r.nodes(), r.peakNodes(),
                    r.sites().isEmpty() ? "-" : cut(String.join(",", r.sites()), 10), seconds(r.nodeSeconds()),
                    seconds(r.coreSeconds()), seconds(r.memoryGbSeconds()), seconds(r.gpuSeconds()),
                    seconds(r.busyNodeSeconds()), percent(r.busyEfficiency()), seconds(r.cpuSeconds()),
                    percent(r.cpuEfficiency()), instance ? Integer.toString(r.grows()) : "-",
                    instance ? Integer.toString(r.shrinks()) : "-",
                    r.endedAt() == null ? "-" : r.endedAt().truncatedTo(ChronoUnit.SECONDS).toString());
        }
    }

    /**
     * What one owner's records add up to, as {@code koala acct --by-user} shows it (Slurm's sreport by
     * user): a figure a record does not know (core-seconds on a site whose cores are not configured, the
     * memory and GPUs of a record written before they were counted) adds nothing.
     *
     * @param jobs      records of jobs
     * @param instances records of framework instances
     */
    record UserUsage(String owner, int jobs, int instances, double nodeSeconds, double coreSeconds,
                     double memoryGbSeconds, double gpuSeconds) {
        UserUsage plus(UsageRecord r) {
            boolean instance = UsageRecord.INSTANCE.equals(r.kind());
            return new UserUsage(owner, jobs + (instance ? 0 : 1), instances + (instance ? 1 : 0),
                    sum(nodeSeconds, r.nodeSeconds()), sum(coreSeconds, r.coreSeconds()),
                    sum(memoryGbSeconds, r.memoryGbSeconds()), sum(gpuSeconds, r.gpuSeconds()));
        }

        private static double sum(double a, Double b) {
            return b == null ? a : Math.round((a + b) * 1000) / 1000.0;
        }
    }

    /** The records' figures added up per owner, in owner order; an owner not known is "-". */
    static List<UserUsage> byUser(List<UsageRecord> records) {
        Map<String, UserUsage> users = new java.util.TreeMap<>();
        for (UsageRecord r : records) {
            String owner = r.owner() == null ? "-" : r.owner();
            users.put(owner, users.getOrDefault(owner, new UserUsage(owner, 0, 0, 0, 0, 0, 0)).plus(r));
        }
        return List.copyOf(users.values());
    }

    static void userTable(List<UserUsage> users, PrintWriter out) {
        if (users.isEmpty()) {
            out.println("no usage records");
            return;
        }
        out.printf(USER_ROW, "USER", "JOBS", "INSTANCES", "NODE-S", "CORE-S", "GB-S", "GPU-S");
        for (UserUsage u : users) {
            out.printf(USER_ROW, cut(u.owner(), 12), u.jobs(), u.instances(), seconds(u.nodeSeconds()),
                    seconds(u.coreSeconds()), seconds(u.memoryGbSeconds()), seconds(u.gpuSeconds()));
        }
    }

    static void userJsonLines(List<UserUsage> users, PrintWriter out) {
        users.forEach(u -> out.println(Json.write(u)));
    }

    static void userCsv(List<UserUsage> users, PrintWriter out) {
        out.print("owner,jobs,instances,nodeSeconds,coreSeconds,memoryGbSeconds,gpuSeconds\r\n");
        for (UserUsage u : users) {
            out.print(String.join(",", quoted(u.owner()), Integer.toString(u.jobs()), Integer.toString(u.instances()),
                    text(u.nodeSeconds()), text(u.coreSeconds()), text(u.memoryGbSeconds()), text(u.gpuSeconds()))
                    + "\r\n");
        }
    }

    static void jsonLines(List<UsageRecord> records, PrintWriter out) {
        records.forEach(r -> out.println(Json.write(r)));
    }

    /** RFC 4180: a header of the record's field names, then a line per record; a null field is empty. */
    static void csv(List<UsageRecord> records, PrintWriter out) {
        RecordComponent[] fields = UsageRecord.class.getRecordComponents();
        out.print(Arrays.stream(fields).map(RecordComponent::getName).collect(Collectors.joining(",")) + "\r\n");
        for (UsageRecord r : records) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < fields.length; i++) {
                line.append(i == 0 ? "" : ",").append(quoted(text(value(fields[i], r))));
            }
            out.print(line.append("\r\n"));
        }
    }

    private static Object value(RecordComponent field, UsageRecord r) {
        try {
            return field.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + field.getName() + " of a usage record", e);
        }
    }

    /** A field as CSV shows it: numbers plainly, lists joined by spaces, roles as {@code role=nodes:node-seconds}. */
    private static String text(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
        if (value instanceof Collection<?> list) {
            return list.stream().map(Object::toString).collect(Collectors.joining(" "));
        }
        if (value instanceof Map<?, ?> roles) { // a record's roles come in role order
            return roles.entrySet().stream().map(e -> e.getKey() + "=" + ((UsageRecord.RoleUsage) e.getValue()).nodes()
                    + ":" + text(((UsageRecord.RoleUsage) e.getValue()).nodeSeconds())).collect(Collectors.joining(" "));
        }
        if (value instanceof Instant at) {
            return at.toString();
        }
        return value.toString();
    }

    private static String quoted(String field) {
        return field.contains(",") || field.contains("\"") || field.contains("\n") || field.contains("\r")
                ? "\"" + field.replace("\"", "\"\"") + "\"" : field;
    }

    private static String known(Object value) {
        return value == null ? "?" : value.toString();
    }

    private static String seconds(Double s) {
        return s == null ? "?" : String.format(java.util.Locale.ROOT, "%.1f", s);
    }

    private static String percent(Double share) {
        return share == null ? "?" : Math.round(share * 100) + "%";
    }

    private static String cut(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "~";
    }
}
