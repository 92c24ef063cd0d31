package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import koala.common.time.Poll;

/**
 * The local multicluster testbed: several independent SGE cells on this machine, each with its own
 * qmaster and execd, brought up from Debian's packages. {@code up} is idempotent and says what it
 * changed; {@code down} stops the daemons {@code up} recorded, and the jobs in their cells.
 */
public final class Testbed {
    /** The unprivileged account site agents submit as: SGE refuses jobs of root (min_uid 1000). */
    public static final String AGENT_USER = "koala";

    private final Path koalaHome;
    private final Progress progress;
    private final Poll poll;

    public Testbed(Path koalaHome, Progress progress, Poll poll) {
        this.koalaHome = koalaHome;
        this.progress = progress;
        this.poll = poll;
    }

    public Path gridConfig() {
        return koalaHome.resolve("grid.properties");
    }

    /** Brings the plan's cells up; returns the changes made, empty when all was already running. */
    public List<String> up(TestbedPlan plan) {
        requireRoot();
        List<String> changes = new ArrayList<>();
        List<String> missing = SgePackages.missing(Shell.root());
        if (!missing.isEmpty()) {
            SgePackages.install(Shell.root(), missing, progress);
            changes.add("installed " + String.join(" ", missing));
        }
        changes.addAll(ensureAccount());
        String host = hostname();
        List<SgeCell> cells = plan.cells().stream().map(c -> new SgeCell(c, host, poll)).toList();
        Map<String, List<Long>> daemons = new LinkedHashMap<>();
        for (SgeCell cell : cells) {
            changes.addAll(bringUp(cell));
            daemons.put(cell.plan().name(), List.of(cell.qmasterPid().orElseThrow(), cell.execdPid().orElseThrow()));
        }
        reportStrays(plan);
        new TestbedRecord(host, plan.cells(), daemons).write(koalaHome);
        if (writeIfChanged(gridConfig(), GridConfigFile.render(cells, AGENT_USER))) {
            changes.add("wrote " + gridConfig());
        }
        return changes;
    }

    private List<String> bringUp(SgeCell cell) {
        String name = cell.plan().name();
        List<String> changes = new ArrayList<>();
        if (!cell.initialised()) {
            cell.initialise(progress);
            changes.add(name + ": created cell");
        }
        if (cell.qmasterPid().isEmpty()) {
            cell.startQmaster(progress);
            changes.add(name + ": started qmaster");
        }
        try {
            Path scratch = Files.createTempDirectory("koala-testbed-");
            cell.configure(scratch).forEach(c -> changes.add(name + ": " + c));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (cell.execdPid().isEmpty()) {
            cell.startExecd(progress);
            changes.add(name + ": started execd");
        }
        progress.step(name + ": " + (changes.isEmpty() ? "already running, unchanged" : "up") + " (qmaster port "
                + cell.plan().qmasterPort() + ", execd port " + cell.plan().execdPort() + ", " + cell.plan().slots()
                + " slots)");
        return changes;
    }

    private void reportStrays(TestbedPlan plan) {
        TestbedRecord previous = TestbedRecord.read(koalaHome);
        if (previous == null) {
            return;
        }
        Set<String> planned = new LinkedHashSet<>();
        plan.cells().forEach(c -> planned.add(c.name()));
        previous.cells().stream().filter(c -> !planned.contains(c.name())).forEach(c -> {
            SgeCell cell = new SgeCell(c, previous.host(), poll);
            if (cell.qmasterPid().isPresent()) {
                progress.step(c.name() + ": running but not in this plan; stopping it");
                stopCell(cell);
            }
        });
    }

    /** Stops every recorded cell's jobs and daemons; returns what it stopped. */
    public List<String> down() {
        requireRoot();
        TestbedRecord record = TestbedRecord.read(koalaHome);
        if (record == null) {
            return List.of();
        }
        // cells stop independently, and a daemon takes seconds to go: stop them side by side
        List<CompletableFuture<List<String>>> stopping = record.cells().stream()
                .map(plan -> CompletableFuture.supplyAsync(() -> stopIfRunning(new SgeCell(plan, record.host(), poll),
                        record.daemons().getOrDefault(plan.name(), List.of()))))
                .toList();
        List<String> stopped = new ArrayList<>();
        stopping.forEach(f -> stopped.addAll(f.join()));
        return stopped;
    }

    private List<String> stopIfRunning(SgeCell cell, List<Long> recorded) {
        Set<Long> pids = new LinkedHashSet<>(recorded);
        cell.qmasterPid().ifPresent(pids::add);
        cell.execdPid().ifPresent(pids::add);
        if (pids.stream().noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false))) {
            return List.of();
        }
        progress.step(cell.plan().name() + ": stopping jobs, execd and qmaster");
        return stopCell(cell);
    }

    private List<String> stopCell(SgeCell cell) {
        List<String> stopped = new ArrayList<>();
        String name = cell.plan().name();
        List<ProcessHandle> jobs = cell.jobProcesses();
        jobs.forEach(ProcessHandle::destroyForcibly);
        if (!jobs.isEmpty()) {
            stopped.add(name + ": killed " + jobs.size() + " job processes");
        }
        cell.execdPid().ifPresent(pid -> {
            cell.stop(pid, Duration.ofSeconds(20));
            stopped.add(name + ": stopped execd " + pid);
        });
        cell.qmasterPid().ifPresent(pid -> {
            cell.stop(pid, Duration.ofSeconds(30));
            stopped.add(name + ": stopped qmaster " + pid);
        });
        leftovers(name).forEach(p -> {
            p.destroyForcibly();
            stopped.add(name + ": killed stray " + p.info().command().orElse("?") + " " + p.pid());
        });
        return stopped;
    }

    /** SGE processes that still carry this cell's name in their environment. */
    private static List<ProcessHandle> leftovers(String cell) {
        byte[] marker = ("SGE_CELL=" + cell + "\0").getBytes(StandardCharsets.UTF_8);
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.contains("/sge_")).orElse(false))
                .filter(p -> environContains(p.pid(), marker)).toList();
    }

    private static boolean environContains(long pid, byte[] marker) {
        try {
            byte[] env = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
            return new String(env, StandardCharsets.ISO_8859_1).contains(new String(marker, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            return false;
        }
    }

    /** Every recorded cell: its ports, daemons, slots and jobs. */
    public List<CellStatus> status() {
        TestbedRecord record = TestbedRecord.read(koalaHome);
        if (record == null) {
            return List.of();
        }
        return record.cells().stream().map(plan -> status(new SgeCell(plan, record.host(), poll))).toList();
    }

    private static CellStatus status(SgeCell cell) {
        CellPlan plan = cell.plan();
        Long qmaster = cell.qmasterPid().orElse(null);
        Long execd = cell.execdPid().orElse(null);
        if (qmaster == null || !cell.answers()) {
            return new CellStatus(plan.name(), plan.qmasterPort(), plan.execdPort(), qmaster, execd, plan.slots(), -1, 0, 0);
        }
        String summary = cell.client("qstat", "-g", "c").out();
        int[] slots = QstatText.clusterQueueSlots(summary, plan.queue());
        int[] jobs = QstatText.runningAndPending(cell.client("qstat", "-u", "*").out());
        return new CellStatus(plan.name(), plan.qmasterPort(), plan.execdPort(), qmaster, execd, slots[1], slots[0],
                jobs[0], jobs[1]);
    }

    // ---- for tests of outages ----------------------------------------------------------------

    /** Stops the qmaster of {@code cell} (its execd and jobs go on, as when a head node fails). */
    public void stopQmaster(String cell) {
        SgeCell c = cell(cell);
        c.qmasterPid().ifPresent(pid -> c.stop(pid, Duration.ofSeconds(30)));
    }

    /** Starts the qmaster of {@code cell} again and waits until its execd has reported back. */
    public void startQmaster(String cell) {
        SgeCell c = cell(cell);
        if (c.qmasterPid().isEmpty()) {
            c.startQmaster(progress);
            c.awaitQueueReady();
            TestbedRecord record = TestbedRecord.read(koalaHome);
            Map<String, List<Long>> daemons = new LinkedHashMap<>(record.daemons());
            daemons.put(cell, List.of(c.qmasterPid().orElseThrow(), c.execdPid().orElse(-1L)));
            new TestbedRecord(record.host(), record.cells(), daemons).write(koalaHome);
        }
    }

    private SgeCell cell(String name) {
        TestbedRecord record = Optional.ofNullable(TestbedRecord.read(koalaHome))
                .orElseThrow(() -> new TestbedException("no testbed recorded under " + koalaHome));
        return record.cells().stream().filter(c -> c.name().equals(name)).findFirst()
                .map(c -> new SgeCell(c, record.host(), poll))
                .orElseThrow(() -> new TestbedException("no testbed cell " + name));
    }

    // ---- machine ----------------------------------------------------------------------------

    private List<String> ensureAccount() {
        Shell shell = Shell.root();
        if (shell.run("id", "-u", AGENT_USER).ok()) {
            return List.of();
        }
        progress.step("creating account " + AGENT_USER + " for site agents and pilot jobs");
        shell.check("useradd", "--create-home", "--shell", "/bin/bash", "--comment", "KOALA site agents", AGENT_USER);
        int uid = Integer.parseInt(shell.check("id", "-u", AGENT_USER).out().trim());
        if (uid < 1000) {
            throw new TestbedException("account " + AGENT_USER + " got uid " + uid + "; SGE refuses jobs below 1000");
        }
        return List.of("created account " + AGENT_USER);
    }

    private static String hostname() {
        return Shell.root().check("hostname").out().trim();
    }

    private static void requireRoot() {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new TestbedException("the testbed installs packages and starts SGE daemons: run it as root");
        }
    }

    private static boolean writeIfChanged(Path file, String content) {
        try {
            if (Files.exists(file) && Files.readString(file).equals(content)) {
                return false;
            }
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<String> lines(String text) {
        return text.lines();
    }
}
