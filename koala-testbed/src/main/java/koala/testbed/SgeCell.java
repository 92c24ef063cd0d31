package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import koala.common.time.Poll;
import koala.grid.CellEnvironment;

/**
 * One independent SGE cell of the testbed: its files under {@code $SGE_ROOT/<cell>}, its spool
 * under {@code /var/spool/gridengine/<cell>}, its qmaster on the cell's head node and an execd on
 * each compute node (hosts of their own, see {@link Hosts}). The steps are those of Debian's
 * {@code init_cluster} for the default cell, with the cell's own spool and ports; administration
 * ({@code qconf}) runs on the head node, as a cluster's admin would run it.
 */
final class SgeCell {
    static final Path SGE_ROOT = Path.of("/var/lib/gridengine");
    static final Path SPOOL_ROOT = Path.of("/var/spool/gridengine");
    static final String ADMIN = "sgeadmin";
    private static final Path SGE_LIB = Path.of("/usr/lib/gridengine");
    private static final Path SGE_SHARE = Path.of("/usr/share/gridengine");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final int EXECDS_AT_ONCE = 4;

    private final CellPlan plan;
    private final Shell root;
    private final Shell head;
    private final Shell admin;
    private final Poll poll;

    SgeCell(CellPlan plan, Poll poll) {
        this.plan = plan;
        this.poll = poll;
        this.root = Shell.root().with(environment().variables());
        this.head = Hosts.shell(plan.head()).with(environment().variables());
        this.admin = root.as(ADMIN);
    }

    CellPlan plan() {
        return plan;
    }

    CellEnvironment environment() {
        return new CellEnvironment(SGE_ROOT, plan.name(), plan.qmasterPort(), plan.execdPort(), Path.of("/usr/bin"));
    }

    Path commonDir() {
        return SGE_ROOT.resolve(plan.name()).resolve("common");
    }

    Path spool() {
        return SPOOL_ROOT.resolve(plan.name());
    }

    /** True when {@link #initialise} ran to its end (it writes its mark last). */
    boolean initialised() {
        return Files.exists(spool().resolve(".koala-initialised"));
    }

    /** True when an earlier {@link #initialise} began but did not finish: its files must go first. */
    boolean halfInitialised() {
        return !initialised() && (Files.exists(spool()) || Files.exists(commonDir()));
    }

    /** True when the cell was made for another head node (by the single-host testbed before hosts). */
    boolean madeForAnotherHead() {
        try {
            Path act = commonDir().resolve("act_qmaster");
            return Files.exists(act) && !Files.readString(act).trim().equals(plan.head());
        } catch (IOException e) {
            return true;
        }
    }

    /** Deletes the cell's files and spool (its daemons must be stopped). */
    void wipe() {
        root.check("rm", "-rf", SGE_ROOT.resolve(plan.name()).toString(), spool().toString());
    }

    /** Creates the cell's files and its Berkeley DB spool, as the SGE admin account. */
    void initialise(Progress progress) {
        progress.step(plan.name() + ": creating cell (spool " + spool() + ")");
        for (Path dir : List.of(commonDir(), spool().resolve("qmaster/job_scripts"), spool().resolve("spooldb"),
                spool().resolve("execd"))) {
            root.check("mkdir", "-p", dir.toString());
        }
        write(commonDir().resolve("bootstrap"), bootstrap());
        write(commonDir().resolve("act_qmaster"), plan.head() + "\n");
        write(commonDir().resolve("settings.sh"), "SGE_ROOT=" + SGE_ROOT + "; export SGE_ROOT\nSGE_CELL=" + plan.name()
                + "; export SGE_CELL\nSGE_QMASTER_PORT=" + plan.qmasterPort() + "; export SGE_QMASTER_PORT\n"
                + "SGE_EXECD_PORT=" + plan.execdPort() + "; export SGE_EXECD_PORT\n");
        Path global = spool().resolve("global");
        write(global, globalConfiguration());
        root.check("chown", "-R", ADMIN + ":" + ADMIN, SGE_ROOT.resolve(plan.name()).toString(), spool().toString());
        admin.check(SGE_LIB.resolve("spoolinit").toString(), "berkeleydb", "libspoolb",
                spool().resolve("spooldb").toString(), "init");
        spoolDefaults("configuration", global.toString());
        spoolDefaults("complexes", SGE_SHARE.resolve("util/resources/centry").toString());
        spoolDefaults("usersets", SGE_SHARE.resolve("util/resources/usersets").toString());
        spoolDefaults("managers", ADMIN);
        // the head node administers the cell; every later change is made there with qconf
        Path admins = spool().resolve("adminhosts.template");
        write(admins.resolve(plan.head()), "hostname " + plan.head() + "\n");
        root.check("chown", "-R", ADMIN + ":" + ADMIN, admins.toString());
        spoolDefaults("adminhosts", admins.toString());
        write(spool().resolve(".koala-initialised"), "made by bin/koala testbed up for head node " + plan.head() + "\n");
    }

    private void spoolDefaults(String what, String from) {
        admin.check(SGE_LIB.resolve("spooldefaults").toString(), what, from);
    }

    private String bootstrap() {
        return String.join("\n",
                "# Version: 6.2", "admin_user              " + ADMIN, "default_domain          none",
                "ignore_fqdn             false", "spooling_method         berkeleydb",
                "spooling_lib            libspoolb", "spooling_params         " + spool().resolve("spooldb"),
                "binary_path             /usr/sbin", "qmaster_spool_dir       " + spool().resolve("qmaster"),
                "security_mode           none", "listener_threads        2", "worker_threads          2",
                "scheduler_threads       1", "");
    }

    /** Debian's default global configuration with this cell's execd spool and quick accounting. */
    private String globalConfiguration() {
        try {
            StringBuilder conf = new StringBuilder();
            for (String line : Files.readAllLines(SGE_SHARE.resolve("default-configuration"))) {
                if (line.startsWith("gid_range")) {
                    line = "gid_range              " + plan.gidRange();
                } else if (line.startsWith("execd_spool_dir")) {
                    line = "execd_spool_dir        " + spool().resolve("execd");
                } else if (line.startsWith("reporting_params")) {
                    line = "reporting_params       accounting=true reporting=false flush_time=00:00:01 joblog=false"
                            + " sharelog=00:00:00";
                }
                conf.append(line).append('\n');
            }
            return conf.toString();
        } catch (IOException e) {
            throw new TestbedException("cannot read Debian's SGE default configuration: " + e.getMessage());
        }
    }

    // ---- daemons ----------------------------------------------------------------------------

    Optional<Long> qmasterPid() {
        return daemonPid(spool().resolve("qmaster/qmaster.pid"), "sge_qmaster");
    }

    /** Every execd of the cell that runs, on the plan's hosts or others (a single-host cell's). */
    List<Long> execdPids() {
        try (Stream<Path> hosts = Files.list(spool().resolve("execd"))) {
            return hosts.map(h -> daemonPid(h.resolve("execd.pid"), "sge_execd")).flatMap(Optional::stream).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The execd of compute node {@code node}, if it runs. */
    Optional<Long> execdPid(String node) {
        return daemonPid(spool().resolve("execd").resolve(node).resolve("execd.pid"), "sge_execd");
    }

    /**
     * The pid in {@code pidFile} if it names a running {@code daemon} ({@link PidFile#daemon}) that works
     * in the pid file's directory, as SGE's daemons work in their spool: a stale pid file can also name
     * another node's execd, whose number the kernel gave out again after a restart.
     */
    static Optional<Long> daemonPid(Path pidFile, String daemon) {
        return PidFile.daemon(pidFile, daemon).filter(pid -> worksIn(pid, pidFile.getParent()));
    }

    private static boolean worksIn(long pid, Path dir) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd")).equals(dir.toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    void startQmaster(Progress progress) {
        progress.step(plan.name() + ": starting sge_qmaster on " + plan.head() + " (port " + plan.qmasterPort() + ")");
        head.check("/usr/sbin/sge_qmaster");
        if (!poll.until(this::answers, START_TIMEOUT)) {
            throw new TestbedException(plan.name() + ": qmaster did not answer within " + START_TIMEOUT.toSeconds()
                    + " s; see " + spool().resolve("qmaster/messages"));
        }
    }

    /** Starts the execd of compute node {@code node} on that host; it daemonizes. */
    void startExecd(String node) {
        Hosts.shell(node).with(environment().variables()).check("/usr/sbin/sge_execd");
    }

    /**
     * Starts an execd on each of {@code nodes}, {@value #EXECDS_AT_ONCE} at a time: one takes about a second and
     * a quarter to start, so the 16 of a cell started one after another took 20 s. Each node has its own spool
     * directory; the qmaster takes their reports in any order.
     */
    void startExecds(List<String> nodes) {
        if (nodes.isEmpty()) {
            return;
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(EXECDS_AT_ONCE, nodes.size()));
        try {
            List<java.util.concurrent.Future<?>> starts = new java.util.ArrayList<>();
            nodes.forEach(node -> starts.add(pool.submit(() -> startExecd(node))));
            for (java.util.concurrent.Future<?> start : starts) {
                start.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new TestbedException(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestbedException(plan.name() + ": interrupted while starting its execds");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits until every compute node's execd has reported to the qmaster and its queue instance takes jobs. */
    void awaitQueueReady() {
        if (!poll.until(() -> readyNodes() == plan.nodes(), START_TIMEOUT)) {
            throw new TestbedException(plan.name() + ": " + readyNodes() + " of " + plan.nodes() + " queue instances of "
                    + plan.queue() + " ready after " + START_TIMEOUT.toSeconds() + " s; see " + spool().resolve("execd")
                    + "/<host>/messages");
        }
    }

    /** True when the qmaster answers a client on its head node. */
    boolean answers() {
        return head.run("qstat").ok();
    }

    int readyNodes() {
        Shell.Result r = head.run("qstat", "-f", "-q", plan.queue());
        return r.ok() ? (int) r.out().lines().filter(l -> l.startsWith(plan.queue() + "@") && queueUsable(l)).count() : 0;
    }

    private static boolean queueUsable(String line) {
        String[] cols = line.trim().split("\\s+");
        return cols.length < 6 || !cols[5].matches(".*[uEdDsSCc].*");
    }

    /** Stops a daemon: TERM, then KILL if it has not gone in {@code grace}. */
    boolean stop(long pid, Duration grace) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return true;
        }
        handle.get().destroy();
        if (poll.until(() -> !handle.get().isAlive(), grace)) {
            return true;
        }
        handle.get().destroyForcibly();
        return poll.until(() -> !handle.get().isAlive(), Duration.ofSeconds(5));
    }

    /**
     * Jobs still running in this cell: each {@code sge_shepherd} started by this cell's execd (its
     * working directory is in the cell's execd spool) with everything below it.
     */
    List<ProcessHandle> jobProcesses() {
        Path execdSpool = spool().resolve("execd");
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("sge_shepherd")).orElse(false))
                .filter(p -> cwd(p).map(d -> d.startsWith(execdSpool)).orElse(false))
                .forEach(shepherd -> {
                    shepherd.descendants().forEach(found::add);
                    found.add(shepherd);
                });
        return found;
    }

    private static Optional<Path> cwd(ProcessHandle p) {
        try {
            return Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd")));
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    // ---- configuration ----------------------------------------------------------------------

    private List<String> submitHosts() {
        return head.run("qconf", "-ss").out().lines().map(String::trim).toList();
    }

    /**
     * Takes {@code host} off the cell's submit hosts, if it is one; returns the change. A qmaster that cannot do it
     * (it no longer resolves the name) leaves it on the list, which harms nothing: the change says so.
     */
    List<String> dropSubmitHost(String host) {
        if (!submitHosts().contains(host)) {
            return List.of();
        }
        Shell.Result r = head.run("qconf", "-ds", host);
        return List.of(r.ok() ? "removed submit host " + host
                : "submit host " + host + " kept: " + (r.err().isBlank() ? r.out() : r.err()).strip());
    }

    /** An execution host's {@code complex_values} as {@code qconf -se} shows it ({@code NONE} for none). */
    private String complexValues(String node) {
        String shown = joinLines(head.run("qconf", "-se", node).out());
        String v = value(shown, "complex_values");
        return v == null ? "NONE" : v;
    }

    /**
     * Makes the cell's hosts and queue match the plan; returns what it changed.
     *
     * @param submitters the cell's submit hosts ({@link TestbedPlan#submitHosts}); the standby host, when it is not
     *                   one of them, stops being one
     */
    List<String> configure(Path scratch, List<String> submitters) {
        List<String> changes = new ArrayList<>();
        // hosts can name exclusive, gpu and a consumable h_vmem only once the cell has them
        changes.addAll(complexes(scratch, true));
        List<String> execHosts = head.run("qconf", "-sel").out().lines().map(String::trim).toList();
        List<String> localConfs = head.run("qconf", "-sconfl").out().lines().map(String::trim).toList();
        for (int i = 1; i <= plan.nodes(); i++) {
            String node = plan.node(i);
            String complexes = complexValues(plan, i);
            if (!execHosts.contains(node)) {
                write(scratch.resolve(node + ".exechost"), "hostname " + node + "\nload_scaling NONE\n"
                        + "complex_values " + complexes + "\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\n"
                        + "usage_scaling NONE\nreport_variables NONE\n");
                head.check("qconf", "-Ae", scratch.resolve(node + ".exechost").toString());
                changes.add("added execution host " + node);
            } else if (!sameComplexValues(complexValues(node), complexes)) {
                // slots per node or the host's shape changed in place: a whole-host request (-l exclusive=true)
                // needs the host to offer it, a claim of h_vmem or gpu needs the host's capacity
                head.check("qconf", "-rattr", "exechost", "complex_values", complexes, node);
                changes.add("complex_values of " + node + " set to " + complexes);
            }
            if (!localConfs.contains(node)) {
                // qconf names a local configuration after its file
                Path conf = scratch.resolve("conf").resolve(node);
                write(conf, "gid_range " + plan.gidRange(i) + "\n");
                head.check("qconf", "-Aconf", conf.toString());
            }
        }
        List<String> submitHosts = submitHosts();
        for (String submitter : submitters) {
            if (!submitHosts.contains(submitter)) {
                head.check("qconf", "-as", submitter);
                changes.add("added submit host " + submitter);
            }
        }
        if (!submitters.contains(TestbedPlan.STANDBY_NAME)) {
            changes.addAll(dropSubmitHost(TestbedPlan.STANDBY_NAME));
        }
        changes.addAll(configureGlobal(scratch));
        changes.addAll(configureQueue(scratch));
        // what the plan does not need goes once no host names it: the plain testbed has SGE's own table
        changes.addAll(complexes(scratch, false));
        changes.addAll(configureParallelEnvironment(scratch));
        changes.addAll(configureScheduler(scratch));
        return changes;
    }

    /** A cell with a host of several slots needs the complex exclusive (KOALA claims a whole host with it). */
    static boolean needsExclusive(CellPlan plan) {
        for (int i = 1; i <= plan.nodes(); i++) {
            if (plan.slotsOf(i) > 1) {
                return true;
            }
        }
        return false;
    }

    /** The {@code complex_values} compute node {@code i} of {@code plan} should have. */
    static String complexValues(CellPlan plan, int i) {
        HostShape shape = plan.shapeOf(i);
        return shape != null ? shape.complexValues() : plan.slotsPerNode() > 1 ? "exclusive=true" : "NONE";
    }

    /**
     * True when two {@code complex_values} say the same: qconf shows them in its own order and
     * spelling ({@code TRUE}, {@code 8.000G} for {@code 8192M}).
     */
    static boolean sameComplexValues(String shown, String wanted) {
        return complexMap(shown).equals(complexMap(wanted));
    }

    private static Map<String, String> complexMap(String values) {
        Map<String, String> map = new java.util.TreeMap<>();
        String v = values == null ? "NONE" : values.replaceAll("\\s+", "");
        if (v.isEmpty() || v.equalsIgnoreCase("NONE")) {
            return map;
        }
        for (String pair : v.split(",")) {
            String[] kv = pair.split("=", 2);
            map.put(kv[0], kv.length < 2 ? "" : normalValue(kv[1]));
        }
        return map;
    }

    /** A value with SGE's memory units in bytes, a number as a number, a word in lower case. */
    private static String normalValue(String value) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9.]+)([KkMmGgTt]?)").matcher(value);
        if (!m.matches()) {
            return value.toLowerCase(java.util.Locale.ROOT);
        }
        double factor = switch (m.group(2)) {
            case "K" -> 1024.0;
            case "k" -> 1e3;
            case "M" -> 1024.0 * 1024;
            case "m" -> 1e6;
            case "G" -> 1024.0 * 1024 * 1024;
            case "g" -> 1e9;
            case "T" -> 1024.0 * 1024 * 1024 * 1024;
            case "t" -> 1e12;
            default -> 1.0;
        };
        return Long.toString(Math.round(Double.parseDouble(m.group(1)) * factor));
    }

    /** The complex gpu as the testbed declares it: an integer, booked once per job (not per slot). */
    static final String GPU_COMPLEX = "gpu                 gpu        INT         <=    YES         JOB        0        0";
    /** A job asking {@code -l exclusive=true} gets a whole host: KOALA's node request where hosts have several slots. */
    static final String EXCLUSIVE_COMPLEX = "exclusive excl BOOL EXCL YES YES 0 1000";

    /** Which of the testbed's complexes a cell has: {@code exclusive}, and a consumable {@code h_vmem} with {@code gpu}. */
    record Complexes(boolean exclusive, boolean resources) {
        static Complexes of(CellPlan plan) {
            return new Complexes(needsExclusive(plan), plan.shaped());
        }
    }

    /**
     * The cell's complex table with what {@code wanted} needs added ({@code adding}) or with what it
     * does not need taken out (not {@code adding}), or null when {@code complexes} ({@code qconf -sc})
     * needs no change. Additions come before the hosts name them and removals after no host names
     * them any more, so the two are separate steps. A shaped cell has a consumable {@code h_vmem}
     * (booked per slot, as SGE's users expect of {@code -pe smp 8 -l h_vmem=4G}) and {@code gpu}; the
     * plain testbed has SGE's own table, where {@code h_vmem} is a plain limit and neither
     * {@code gpu} nor {@code exclusive} exists.
     */
    static String complexTable(String complexes, Complexes wanted, boolean adding) {
        StringBuilder out = new StringBuilder();
        boolean changed = false;
        boolean hasGpu = false;
        boolean hasExclusive = false;
        for (String line : complexes.split("\n")) {
            String[] cols = line.trim().split("\\s+");
            boolean entry = !line.startsWith("#") && cols.length >= 8;
            if (entry && cols[0].equals("h_vmem")) {
                String consumable = wanted.resources() ? "YES" : "NO";
                if (!cols[5].equals(consumable) && adding == wanted.resources()) {
                    cols[5] = consumable;
                    line = String.join(" ", cols);
                    changed = true;
                }
            } else if (entry && cols[0].equals("gpu")) {
                hasGpu = true;
                if (!wanted.resources() && !adding) {
                    changed = true;
                    continue;
                }
            } else if (entry && cols[0].equals("exclusive")) {
                hasExclusive = true;
                if (!wanted.exclusive() && !adding) {
                    changed = true;
                    continue;
                }
            }
            out.append(line).append('\n');
        }
        if (adding && wanted.exclusive() && !hasExclusive) {
            out.append(EXCLUSIVE_COMPLEX).append('\n');
            changed = true;
        }
        if (adding && wanted.resources() && !hasGpu) {
            out.append(GPU_COMPLEX).append('\n');
            changed = true;
        }
        return changed ? out.toString() : null;
    }

    /** One step of {@link #complexTable}, made with qconf on the head node. */
    private List<String> complexes(Path scratch, boolean adding) {
        Complexes wanted = Complexes.of(plan);
        String shown = head.check("qconf", "-sc").out();
        String table = complexTable(shown, wanted, adding);
        if (table == null) {
            return List.of();
        }
        Path file = scratch.resolve(adding ? "complexes-added" : "complexes-removed");
        write(file, table);
        if (adding) {
            head.check("qconf", "-Mc", file.toString());
        } else {
            // an execution host outside the plan (left by a larger one) may still name a complex: SGE then
            // refuses to drop it, which costs nothing to the plan's hosts, so up goes on and says so
            Shell.Result r = head.run("qconf", "-Mc", file.toString());
            if (!r.ok()) {
                return List.of("complexes " + names(shown) + " kept: " + (r.err().isBlank() ? r.out() : r.err()).strip());
            }
        }
        return List.of("complexes " + names(shown) + " -> " + names(table));
    }

    /** The testbed's own complexes in a table, for the change's description. */
    private static String names(String table) {
        List<String> names = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] cols = line.trim().split("\\s+");
            if (!line.startsWith("#") && cols.length >= 8 && List.of("exclusive", "gpu", "h_vmem").contains(cols[0])) {
                names.add(cols[0] + (cols[0].equals("h_vmem") ? (cols[5].equals("NO") ? " (a limit)" : " (consumable)") : ""));
            }
        }
        return String.join(", ", names);
    }

    /** The cell's own additional group ids (cells created before this rule get it here). */
    private List<String> configureGlobal(Path scratch) {
        String global = head.check("qconf", "-sconf", "global").out();
        String current = value(global, "gid_range");
        if (plan.gidRange().equals(current)) {
            return List.of();
        }
        // qconf -Mconf names the configuration after the file
        write(scratch.resolve("global"), edit(global.replaceFirst("^#global:\\s*\n", ""),
                Map.of("gid_range", plan.gidRange())));
        head.check("qconf", "-Mconf", scratch.resolve("global").toString());
        return List.of("gid_range " + current + " -> " + plan.gidRange());
    }

    private List<String> configureQueue(Path scratch) {
        Shell.Result existing = head.run("qconf", "-sq", plan.queue());
        String hosts = String.join(" ", plan.nodeNames());
        String slots = queueSlots(plan);
        if (!existing.ok()) {
            Map<String, String> values = new LinkedHashMap<>();
            values.put("qname", plan.queue());
            values.put("hostlist", hosts);
            values.put("slots", slots);
            values.put("pe_list", "NONE");
            // a loaded two-core machine must not push the queue into alarm state
            values.put("load_thresholds", "NONE");
            write(scratch.resolve("queue"), edit(head.check("qconf", "-sq").out(), values));
            head.check("qconf", "-Aq", scratch.resolve("queue").toString());
            return List.of("created queue " + plan.queue() + " on " + plan.nodes() + " hosts of " + slots + " slots");
        }
        List<String> changes = new ArrayList<>();
        String listed = value(existing.out().replace("\\\n", " "), "hostlist");
        if (listed == null || !List.of(listed.split("\\s+")).equals(plan.nodeNames())) {
            head.check("qconf", "-mattr", "queue", "hostlist", hosts, plan.queue());
            changes.add("queue " + plan.queue() + " hosts " + listed + " -> " + hosts);
        }
        String shown = value(joinLines(existing.out()), "slots");
        if (!sameQueueSlots(shown, slots)) {
            // host-specific values ([host=n]) go in through the whole queue's file: -mattr takes one value
            write(scratch.resolve("queue"), edit(joinLines(head.check("qconf", "-sq", plan.queue()).out()),
                    Map.of("slots", slots)));
            head.check("qconf", "-Mq", scratch.resolve("queue").toString());
            changes.add("queue " + plan.queue() + " slots " + shown + " -> " + slots);
        }
        return changes;
    }

    /**
     * The queue's {@code slots}: {@code slotsPerNode}, and each host of a shape with other slots in
     * SGE's host-specific form, e.g. {@code 1,[fs0-n13=16],[fs0-n14=16]}.
     */
    static String queueSlots(CellPlan plan) {
        StringBuilder slots = new StringBuilder(Integer.toString(plan.slotsPerNode()));
        for (int i = 1; i <= plan.nodes(); i++) {
            if (plan.slotsOf(i) != plan.slotsPerNode()) {
                slots.append(",[").append(plan.node(i)).append('=').append(plan.slotsOf(i)).append(']');
            }
        }
        return slots.toString();
    }

    /** True when the queue's {@code slots} as qconf shows them say {@code wanted}, in whatever order. */
    static boolean sameQueueSlots(String shown, String wanted) {
        return slotSet(shown).equals(slotSet(wanted));
    }

    private static java.util.Set<String> slotSet(String slots) {
        return slots == null ? java.util.Set.of()
                : java.util.Set.copyOf(java.util.Arrays.asList(slots.replaceAll("\\s+", "").replace("],[", "];[").replace(",[", ";[").split(";")));
    }

    /** qconf's output with its continued lines ({@code \} at the end) joined. */
    static String joinLines(String text) {
        return text.replaceAll("\\\\\n\\s*", " ");
    }

    /**
     * A parallel environment of the testbed's cells, on every cell's queue.
     *
     * @param allocationRule  how SGE spreads the job's slots over hosts
     * @param controlSlaves   SGE starts the job's tasks ({@code qrsh -inherit})
     * @param jobIsFirstTask  the job's own script is one of its tasks (takes one of its slots)
     */
    record ParallelEnvironment(String name, String allocationRule, boolean controlSlaves, boolean jobIsFirstTask) {
        /** The file {@code qconf -Ap}/{@code -Mp} reads. */
        String file() {
            return "pe_name " + name + "\nslots 9999\nuser_lists NONE\nxuser_lists NONE\nstart_proc_args NONE\n"
                    + "stop_proc_args NONE\nallocation_rule " + allocationRule + "\ncontrol_slaves "
                    + bool(controlSlaves) + "\njob_is_first_task " + bool(jobIsFirstTask) + "\nurgency_slots min\n"
                    + "accounting_summary FALSE\nqsort_args NONE\n";
        }

        /** True when {@code qconf -sp} output says what this environment says of where and how tasks run. */
        boolean sameAs(String shown) {
            return allocationRule.equals(value(shown, "allocation_rule"))
                    && bool(controlSlaves).equalsIgnoreCase(String.valueOf(value(shown, "control_slaves")))
                    && bool(jobIsFirstTask).equalsIgnoreCase(String.valueOf(value(shown, "job_is_first_task")));
        }

        private static String bool(boolean b) {
            return b ? "TRUE" : "FALSE";
        }
    }

    /**
     * With which a plain SGE user runs a multi-node MPI job, {@code qsub -pe mpi N}: slots handed out
     * one per host in turn, the job's tasks started by SGE ({@code qrsh -inherit}, which Open MPI's
     * gridengine support uses), so a plain SGE parallel job can be compared with KOALA's.
     */
    static final ParallelEnvironment MPI = new ParallelEnvironment("mpi", "$round_robin", true, false);
    /**
     * With which one job takes several cores of one host, {@code qsub -pe smp N}: all N slots on the
     * same host ({@code $pe_slots}); the job's own program is its one task, so a pilot asking a node of
     * N cores claims them with this.
     */
    static final ParallelEnvironment SMP = new ParallelEnvironment("smp", "$pe_slots", false, true);
    static final List<ParallelEnvironment> PARALLEL_ENVIRONMENTS = List.of(MPI, SMP);

    /** The parallel environments of {@code wanted} that a queue's {@code pe_list} does not name. */
    static List<String> missingFromPeList(String peList, List<ParallelEnvironment> wanted) {
        List<String> listed = peList == null ? List.of() : List.of(peList.trim().split("[\\s,]+"));
        return wanted.stream().map(ParallelEnvironment::name).filter(n -> !listed.contains(n)).toList();
    }

    /** Every environment of {@link #PARALLEL_ENVIRONMENTS} as it should be, and on the cell's queue. */
    private List<String> configureParallelEnvironment(Path scratch) {
        List<String> changes = new ArrayList<>();
        for (ParallelEnvironment pe : PARALLEL_ENVIRONMENTS) {
            Shell.Result shown = head.run("qconf", "-sp", pe.name());
            if (!shown.ok() || !pe.sameAs(shown.out())) {
                write(scratch.resolve("pe-" + pe.name()), pe.file());
                head.check("qconf", shown.ok() ? "-Mp" : "-Ap", scratch.resolve("pe-" + pe.name()).toString());
                changes.add((shown.ok() ? "changed" : "added") + " parallel environment " + pe.name() + " ("
                        + pe.allocationRule() + ")");
            }
        }
        String peList = value(joinLines(head.check("qconf", "-sq", plan.queue()).out()), "pe_list");
        for (String missing : missingFromPeList("NONE".equals(peList) ? null : peList, PARALLEL_ENVIRONMENTS)) {
            // -aattr adds to the list and keeps what an admin put there
            head.check("qconf", "-aattr", "queue", "pe_list", missing, plan.queue());
            changes.add("queue " + plan.queue() + " offers parallel environment " + missing);
        }
        return changes;
    }

    /** A scheduling interval of one second instead of fifteen, so that jobs start promptly. */
    private List<String> configureScheduler(Path scratch) {
        String current = head.check("qconf", "-ssconf").out();
        if ("0:0:1".equals(value(current, "schedule_interval"))) {
            return List.of();
        }
        write(scratch.resolve("sconf"), edit(current, Map.of("schedule_interval", "0:0:1", "flush_submit_sec", "1",
                "flush_finish_sec", "1")));
        head.check("qconf", "-Msconf", scratch.resolve("sconf").toString());
        return List.of("scheduler interval 1 s");
    }

    /** SGE's "key value" files with some values replaced. */
    static String edit(String file, Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        for (String line : file.split("\n")) {
            String key = line.split("\\s+", 2)[0];
            out.append(values.containsKey(key) ? key + " " + values.get(key) : line).append('\n');
        }
        return out.toString();
    }

    static String value(String file, String key) {
        return file.lines().map(l -> l.split("\\s+", 2)).filter(p -> p.length == 2 && p[0].equals(key))
                .map(p -> p[1].trim()).findFirst().orElse(null);
    }

    /** Runs one of SGE's client commands on the cell's head node. */
    Shell.Result client(String... command) {
        return head.run(command);
    }

    private static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
