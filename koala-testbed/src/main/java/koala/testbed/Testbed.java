package koala.testbed;

import koala.grid.KoalaHome;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import koala.common.time.Poll;

/**
 * The local multicluster testbed: several independent SGE cells whose head nodes and compute
 * nodes are hosts of their own (namespaces on this machine, {@link Hosts}), on bridges of the
 * testbed's own with no route off the machine. {@code up} is idempotent: it makes what is missing,
 * repairs a host whose daemon died and says what it changed; {@code down} stops every daemon and
 * job and removes the hosts, the bridges and the testbed's lines of {@code /etc/hosts}. The cells'
 * files stay for the next {@code up}. Traffic between hosts of different cells is delayed as over a
 * wide-area link ({@link WanDelay}).
 */
public final class Testbed {
    /** The unprivileged account site agents submit as: SGE refuses jobs of root (min_uid 1000). */
    public static final String AGENT_USER = "koala";
    /** Where each cell keeps what its hosts share: KOALA's directory, and a remote site's homes. */
    public static final Path SITES = Path.of("/srv/koala-testbed");

    private final Path koalaHome;
    private final Progress progress;
    private final Poll poll;
    private final Hosts hosts = new Hosts();
    private final EtcHosts etcHosts = new EtcHosts(Path.of("/etc/hosts"));
    private final WanDelay wan;
    private final TestbedStore store;

    public Testbed(Path koalaHome, Progress progress, Poll poll) {
        this.koalaHome = koalaHome;
        this.progress = progress;
        this.poll = poll;
        this.wan = new WanDelay(WanDelay.DIR, poll, progress);
        this.store = TestbedStore.of(progress);
    }

    /**
     * Where a scheduler keeps its users' socket ({@code scheduler.socket}'s default directory): each KOALA host has
     * its own, as each host has its own /run, so that the standby host's scheduler serves its own users.
     */
    static final Path RUN_KOALA = Path.of("/run/koala");

    /** Two ordinary users of the testbed's head node (uid 1000 and up, not admins). */
    public static final List<String> USERS = List.of("alice", "bob");

    /**
     * The grid configuration the testbed writes: the machine's, which every user of the head node
     * reads ({@link KoalaHome#SYSTEM_CONFIG}); it holds no secret.
     */
    public Path gridConfig() {
        return KoalaHome.SYSTEM_CONFIG;
    }

    /** The directory of {@code cell} that KOALA's pilots use on its nodes (jars, logs). */
    public static Path sharedDir(String cell) {
        return SITES.resolve(cell).resolve("shared");
    }

    /** Brings the plan's hosts and cells up; returns the changes made, empty when all was already running. */
    public List<String> up(TestbedPlan plan) {
        requireRoot();
        List<String> changes = new ArrayList<>();
        changes.addAll(install(SgePackages.TESTBED));
        if (plan.store() == TestbedPlan.Store.POSTGRES) {
            changes.addAll(install(SgePackages.STORE));
        }
        if (plan.cells().stream().anyMatch(CellPlan::slurm)) {
            changes.addAll(install(SgePackages.SLURM));
        }
        changes.addAll(ensureAccount());
        changes.addAll(ensureUsers());
        String koalaHost = hostname();
        TestbedRecord previous = readRecord();
        List<String> strays = removeStrays(plan, previous);
        changes.addAll(strays);
        changes.addAll(network(plan, koalaHost));
        // once the KOALA host has its address on the grid's bridge, where the store listens
        changes.addAll(plan.store() == TestbedPlan.Store.POSTGRES ? store.ensure()
                : store.stop("this up asks for the scheduler's own H2 file: no --store postgres"));
        changes.addAll(siteDirectories(plan));
        List<String> made = makeHosts(plan);
        changes.addAll(made);
        new TestbedRecord(koalaHost, plan).write(koalaHome);
        List<CompletableFuture<List<String>>> cells = plan.cells().stream()
                .map(c -> CompletableFuture.supplyAsync(() -> c.slurm() ? bringUp(slurmCell(c))
                        : bringUp(new SgeCell(c, poll), plan.submitHosts(c, koalaHost))))
                .toList();
        // every cell finishes (or fails) before a failure is reported: none is left half made
        CompletableFuture.allOf(cells.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        cells.forEach(f -> changes.addAll(join(f)));
        changes.addAll(wan.ensure(plan, !strays.isEmpty() || !made.isEmpty()));
        changes.addAll(writeGridConfig(GridConfigFile.render(plan, AGENT_USER, this::remoteHead),
                previous == null || previous.plan() == null ? ""
                        : GridConfigFile.render(previous.plan(), AGENT_USER, this::remoteHead)));
        changes.addAll(removeOldConfig());
        return changes;
    }

    /**
     * Installs the real programs the tests and the experiments run on the testbed's nodes (Open MPI,
     * mpi4py, HPC Challenge, Dask, Chromium, curl, pip) when missing; {@link #up} leaves them out, since
     * the demo runs none of them. Returns the changes, empty when all were there.
     */
    public List<String> installPrograms() {
        requireRoot();
        return install(SgePackages.PROGRAMS);
    }

    private List<String> install(List<String> packages) {
        List<String> missing = SgePackages.missing(Shell.root(), packages);
        if (missing.isEmpty()) {
            return List.of();
        }
        SgePackages.install(Shell.root(), missing, progress);
        return List.of("installed " + String.join(" ", missing));
    }

    /**
     * Writes the grid configuration, keeping what an admin added to the testbed's earlier one ({@code
     * renderedBefore}: what the earlier plan wrote, whose keys this plan lacks are dropped, a cell gone); a file
     * the testbed did not write is an admin's own and is left alone, with the reason.
     */
    private List<String> writeGridConfig(String rendered, String renderedBefore) {
        Path file = gridConfig();
        try {
            String previous = Files.exists(file) ? Files.readString(file) : null;
            if (previous != null && !previous.startsWith(GridConfigFile.HEADER)) {
                throw new TestbedException(file + " was not written by the testbed (it lacks the line '"
                        + GridConfigFile.HEADER + "'): it is left as it is; move it aside to let the testbed write its "
                        + "own, and add your settings to that one");
            }
            GridConfigFile.Merged merged = previous == null ? new GridConfigFile.Merged(rendered, List.of())
                    : GridConfigFile.merge(previous, rendered, GridConfigFile.written(renderedBefore));
            List<String> changes = new ArrayList<>(merged.notes().stream().map(n -> file + ": " + n).toList());
            if (writeIfChanged(file, merged.text())) {
                changes.add("wrote " + file);
            }
            return changes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private RemoteHead remoteHead(CellPlan cell) {
        return new RemoteHead(cell, SITES.resolve(cell.name()), koalaHome);
    }

    /** The bridges, the hosts files of each view, and the testbed's block of /etc/hosts. */
    private List<String> network(TestbedPlan plan, String koalaHost) {
        List<String> changes = new ArrayList<>();
        if (!Shell.root().run("ip", "link", "show", TestbedPlan.GRID_BRIDGE).ok()) {
            progress.step("making bridge " + TestbedPlan.GRID_BRIDGE + " (" + TestbedPlan.KOALA_ADDRESS + "/16, "
                    + "the KOALA host " + TestbedPlan.KOALA_NAME + ")");
            changes.add("made bridge " + TestbedPlan.GRID_BRIDGE);
        }
        hosts.bridge(TestbedPlan.GRID_BRIDGE, TestbedPlan.KOALA_ADDRESS + "/16");
        for (CellPlan c : plan.cells()) {
            if (c.remote()) {
                hosts.bridge(TestbedPlan.clusterBridge(c), null);
            }
        }
        try {
            Files.createDirectories(Hosts.VIEWS);
            writeIfChanged(view(HostPlan.GRID_VIEW), plan.hostsFile(HostPlan.GRID_VIEW, koalaHost));
            for (CellPlan c : plan.cells()) {
                if (c.remote()) {
                    writeIfChanged(view(c.name()), plan.hostsFile(c.name(), koalaHost));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (etcHosts.set(plan.machineHosts())) {
            changes.add("wrote the testbed's hosts into /etc/hosts");
        }
        return changes;
    }

    private static Path view(String name) {
        return Hosts.VIEWS.resolve(name + ".hosts");
    }

    /** Each local cell's shared directory for KOALA (its account's, readable by the cell's users). */
    private List<String> siteDirectories(TestbedPlan plan) {
        List<String> changes = new ArrayList<>();
        Shell root = Shell.root();
        for (CellPlan c : plan.cells()) {
            Path dir = c.remote() ? remoteHead(c).home() : sharedDir(c.name());
            if (!Files.isDirectory(dir)) {
                root.check("mkdir", "-p", dir.toString());
                changes.add(c.name() + ": made " + dir);
            }
            root.check("chmod", "755", SITES.toString(), SITES.resolve(c.name()).toString(), dir.toString());
            if (!c.remote()) {
                root.check("chown", AGENT_USER + ":" + AGENT_USER, dir.toString());
            } else {
                changes.addAll(remoteHead(c).prepare(AGENT_USER));
            }
        }
        return changes;
    }

    private List<String> makeHosts(TestbedPlan plan) {
        List<String> changes = new ArrayList<>();
        List<HostPlan> wanted = plan.hosts().stream().filter(h -> !hosts.exists(h.name())).toList();
        if (!wanted.isEmpty()) {
            progress.step("making " + wanted.size() + " hosts (network, UTS and mount namespaces)");
        }
        for (HostPlan h : wanted) {
            hosts.create(h, links(plan, h), view(plan, h));
            changes.add("made host " + h.name() + " (" + h.address() + ")");
        }
        if (!wanted.isEmpty()) {
            progress.step("hosts made: " + wanted.stream().map(HostPlan::name).toList());
        }
        changes.addAll(linksUp(plan));
        return changes;
    }

    /**
     * Every host's end of its links up: a host whose link a test cut ({@link #cutLink}) and did not mend is
     * reached again. One look at every link, and a change only for those down.
     */
    private List<String> linksUp(TestbedPlan plan) {
        Set<String> down = new java.util.HashSet<>();
        for (String line : Shell.root().check("ip", "-br", "link", "show").out().lines().toList()) {
            String[] words = line.trim().split("\\s+");
            if (words.length > 1 && words[1].equals("DOWN")) {
                down.add(words[0].replaceFirst("@.*$", ""));
            }
        }
        List<String> changes = new ArrayList<>();
        for (HostPlan h : plan.hosts()) {
            for (String[] link : links(plan, h)) {
                String outer = h.link(link[0]);
                if (down.contains(outer)) {
                    Shell.root().check("ip", "link", "set", outer, "up");
                    changes.add("host " + h.name() + ": its link to " + link[0] + " was down; set it up");
                }
            }
        }
        return changes;
    }

    private static List<String[]> links(TestbedPlan plan, HostPlan h) {
        List<String[]> links = new ArrayList<>();
        if (h.gridAddress() != null) {
            links.add(new String[] {TestbedPlan.GRID_BRIDGE, h.gridAddress() + "/16"});
        }
        if (h.clusterAddress() != null) {
            links.add(new String[] {TestbedPlan.clusterBridge(plan.cell(h.cell())), h.clusterAddress() + "/24"});
        }
        return links;
    }

    /**
     * What a host of {@code cell} sees: its view's names, no KOALA state, no other site's files. The standby host
     * sees what the KOALA host sees (the SGE installation, /etc/koala, KOALA_HOME, the JDK, the published jars, the
     * checkout), with its own names, /tmp and {@link #RUN_KOALA}.
     */
    private Hosts.View view(TestbedPlan plan, HostPlan h) {
        if (h.role() == HostPlan.Role.STANDBY) {
            try {
                Files.createDirectories(RUN_KOALA, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Hosts.View(view(h.view()), List.of(RUN_KOALA), List.of());
        }
        List<Path> hidden = new ArrayList<>(List.of(koalaHome, Path.of("/root"), Path.of("/var/tmp")));
        projectHome().filter(p -> !p.startsWith("/tmp")).ifPresent(hidden::add);
        plan.cells().stream().filter(c -> !c.name().equals(h.cell())).forEach(c -> hidden.add(SITES.resolve(c.name())));
        List<Path[]> binds = new ArrayList<>();
        CellPlan cell = plan.cell(h.cell());
        if (cell.remote()) {
            binds.add(new Path[] {remoteHead(cell).home(), Path.of("/home")});
        }
        return new Hosts.View(view(h.view()), hidden, binds);
    }

    /** The checkout or installation this process runs from: the compute nodes must not see it. */
    static Optional<Path> projectHome() {
        try {
            Path p = Path.of(Testbed.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
            for (; p != null; p = p.getParent()) {
                if (Files.exists(p.resolve("bin/koala")) && Files.exists(p.resolve("pom.xml"))) {
                    return Optional.of(p);
                }
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private List<String> bringUp(SgeCell cell, List<String> submitters) {
        CellPlan plan = cell.plan();
        String name = plan.name();
        List<String> changes = new ArrayList<>();
        if (cell.madeForAnotherHead() || cell.halfInitialised()) {
            progress.step(name + ": " + (cell.madeForAnotherHead() ? "made by the single-host testbed"
                    : "half made by an earlier try") + "; stopping it and making it anew");
            stopCell(cell, plan);
            cell.wipe();
            changes.add(name + ": removed the old cell");
        }
        if (!cell.initialised()) {
            cell.initialise(progress);
            changes.add(name + ": created cell");
        }
        if (cell.qmasterPid().isEmpty()) {
            cell.startQmaster(progress);
            changes.add(name + ": started qmaster on " + plan.head());
        }
        try {
            // qconf runs on the head node, which does not see this machine's /tmp
            Path scratch = Files.createTempDirectory(cell.spool(), "qconf-");
            try {
                cell.configure(scratch, submitters).forEach(c -> changes.add(name + ": " + c));
            } finally {
                Shell.root().run("rm", "-rf", scratch.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> started = plan.nodeNames().stream().filter(node -> cell.execdPid(node).isEmpty()).toList();
        cell.startExecds(started);
        if (!started.isEmpty()) {
            progress.step(name + ": started sge_execd on " + started.size() + " hosts");
            changes.add(name + ": started execd on " + String.join(" ", started));
        }
        if (plan.remote() && remoteHead(plan).sshdPid().isEmpty()) {
            remoteHead(plan).startSshd(progress);
            changes.add(name + ": started sshd on " + plan.head());
        }
        cell.awaitQueueReady();
        progress.step(name + ": " + (changes.isEmpty() ? "already running, unchanged" : "up") + " (" + plan.nodes()
                + " nodes of " + plan.slotsPerNode() + " slot" + (plan.slotsPerNode() == 1 ? "" : "s")
                + plan.shape().stream().map(g -> "; " + g.describe()).reduce("", String::concat) + ", qmaster on "
                + plan.head() + ":" + plan.qmasterPort() + (plan.remote() ? ", remote: SSH to " + plan.head() : "") + ")");
        return changes;
    }

    private SlurmCell slurmCell(CellPlan cell) {
        return new SlurmCell(cell, SITES.resolve(cell.name()).resolve("slurm"), poll);
    }

    private List<String> bringUp(SlurmCell cell) {
        CellPlan plan = cell.plan();
        List<String> changes = new ArrayList<>(SlurmCell.ensureMunge());
        cell.configure(TestbedPlan.headAddressForNodes(plan)).forEach(c -> changes.add(plan.name() + ": " + c));
        changes.addAll(cell.start(progress));
        if (plan.remote() && remoteHead(plan).sshdPid().isEmpty()) {
            remoteHead(plan).startSshd(progress);
            changes.add(plan.name() + ": started sshd on " + plan.head());
        }
        progress.step(plan.name() + ": " + (changes.isEmpty() ? "already running, unchanged" : "up") + " (Slurm, "
                + plan.nodes() + " nodes of " + plan.slotsPerNode() + " CPU" + (plan.slotsPerNode() == 1 ? "" : "s")
                + plan.shape().stream().map(g -> "; " + g.describe()).reduce("", String::concat) + ", slurmctld on "
                + plan.head() + (plan.remote() ? ", remote: SSH to " + plan.head() : "") + ")");
        return changes;
    }

    /** Stops a cell of either kind. */
    private List<String> stopAnyCell(CellPlan plan) {
        if (!plan.slurm()) {
            return stopCell(new SgeCell(plan, poll), plan);
        }
        List<String> stopped = new ArrayList<>(slurmCell(plan).stop(Duration.ofSeconds(10)));
        if (plan.remote()) {
            remoteHead(plan).stopSshd(poll, Duration.ofSeconds(10))
                    .ifPresent(pid -> stopped.add(plan.name() + ": stopped sshd " + pid));
        }
        return stopped;
    }

    /** Hosts and cells of an earlier plan that this one does not have: stopped and removed. */
    private List<String> removeStrays(TestbedPlan plan, TestbedRecord previous) {
        List<String> changes = new ArrayList<>();
        if (previous != null) {
            for (CellPlan old : previous.cells()) {
                Optional<CellPlan> now = plan.cells().stream().filter(c -> c.name().equals(old.name())).findFirst();
                if (now.isEmpty()) {
                    progress.step(old.name() + ": running but not in this plan; stopping it");
                    changes.addAll(stopAnyCell(old));
                } else if (now.get().remote() != old.remote() || now.get().manager() != old.manager()) {
                    // its hosts sit on other networks, or run other daemons: made anew below
                    progress.step(old.name() + ": " + kind(old) + " in the last plan, " + kind(now.get()) + " in this one; "
                            + "stopping it and making its hosts anew");
                    changes.addAll(stopAnyCell(old));
                    for (String host : hostsOf(old)) {
                        if (hosts.exists(host)) {
                            hosts.remove(host);
                            changes.add("removed host " + host + " (" + old.name() + " changed)");
                        }
                    }
                }
            }
        }
        if (previous != null && previous.plan() != null && previous.plan().standbyHost() && !plan.standbyHost()) {
            changes.addAll(dropStandbySubmitHost(plan.cells()));
        }
        List<String> planned = plan.hosts().stream().map(HostPlan::name).toList();
        for (String host : hosts.existing()) {
            if (!planned.contains(host)) {
                hosts.remove(host);
                changes.add("removed host " + host + " (not in this plan)");
            }
        }
        return changes;
    }

    private static String kind(CellPlan cell) {
        return (cell.remote() ? "remote " : "local ") + (cell.slurm() ? "Slurm" : "SGE");
    }

    private static List<String> hostsOf(CellPlan cell) {
        List<String> names = new ArrayList<>(List.of(cell.head()));
        names.addAll(cell.nodeNames());
        return names;
    }

    /**
     * Takes the standby host off the submit hosts of the running local cells of {@code cells}; done while the hosts
     * files still name it, since a qmaster that no longer resolves a name may not take it off its list.
     */
    private List<String> dropStandbySubmitHost(List<CellPlan> cells) {
        List<String> changes = new ArrayList<>();
        for (CellPlan c : cells) {
            SgeCell cell = new SgeCell(c, poll);
            if (!c.remote() && cell.qmasterPid().isPresent() && cell.answers()) {
                cell.dropSubmitHost(TestbedPlan.STANDBY_NAME).forEach(d -> changes.add(c.name() + ": " + d));
            }
        }
        return changes;
    }

    /** Stops every host and daemon and removes the hosts, bridges and /etc/hosts lines; returns what it did. */
    public List<String> down() {
        requireRoot();
        TestbedRecord record = readRecord();
        List<String> stopped = new ArrayList<>(wan.stop());
        stopped.addAll(store.stop("the testbed goes down"));
        if (record != null && record.plan() != null && record.plan().standbyHost()) {
            stopped.addAll(dropStandbySubmitHost(record.cells()));
        }
        if (record != null) {
            List<CompletableFuture<List<String>>> stopping = record.cells().stream()
                    .map(plan -> CompletableFuture.supplyAsync(() -> stopAnyCell(plan)))
                    .toList();
            stopping.forEach(f -> stopped.addAll(join(f)));
        }
        List<String> existing = hosts.existing();
        if (!existing.isEmpty()) {
            progress.step("removing " + existing.size() + " hosts");
            existing.forEach(hosts::remove);
            stopped.add("removed " + existing.size() + " hosts");
        }
        List<String> bridges = new ArrayList<>(List.of(TestbedPlan.GRID_BRIDGE));
        if (record != null) {
            record.cells().stream().filter(CellPlan::remote).forEach(c -> bridges.add(TestbedPlan.clusterBridge(c)));
        }
        for (String bridge : bridges) {
            if (Shell.root().run("ip", "link", "show", bridge).ok()) {
                hosts.removeBridge(bridge);
                stopped.add("removed bridge " + bridge);
            }
        }
        if (etcHosts.clear()) {
            stopped.add("removed the testbed's lines from /etc/hosts");
        }
        return stopped;
    }

    private List<String> stopCell(SgeCell cell, CellPlan plan) {
        List<String> stopped = new ArrayList<>();
        String name = plan.name();
        List<ProcessHandle> jobs = cell.jobProcesses();
        jobs.forEach(ProcessHandle::destroyForcibly);
        if (!jobs.isEmpty()) {
            stopped.add(name + ": killed " + jobs.size() + " job processes");
        }
        List<Long> execds = cell.execdPids();
        if (!execds.isEmpty()) {
            progress.step(name + ": stopping " + execds.size() + " execds and the qmaster");
            execds.parallelStream().forEach(pid -> cell.stop(pid, Duration.ofSeconds(20)));
            stopped.add(name + ": stopped " + execds.size() + " execds");
        }
        cell.qmasterPid().ifPresent(pid -> {
            cell.stop(pid, Duration.ofSeconds(30));
            stopped.add(name + ": stopped qmaster " + pid);
        });
        if (plan.remote()) {
            remoteHead(plan).stopSshd(poll, Duration.ofSeconds(10)).ifPresent(pid -> stopped.add(name + ": stopped sshd " + pid));
        }
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

    /** The plan the testbed was last brought up with, if it was: what a measurement that changes it puts back. */
    public java.util.Optional<TestbedPlan> plan() {
        TestbedRecord record = readRecord();
        return java.util.Optional.ofNullable(record == null ? null : record.plan());
    }

    /**
     * {@code plan} with the standby host the recorded testbed has, if it has one: a measurement that brings the
     * testbed up for itself must not take away the host the suite's {@code testbed up --standby-host} made (once,
     * with the host made again by the suite's next up, the cells' qmasters refused it as a submit host).
     */
    public TestbedPlan keepingStandbyHost(TestbedPlan plan) {
        return plan.withStandbyHost(plan.standbyHost() || plan().map(TestbedPlan::standbyHost).orElse(false));
    }

    /** Every recorded host and cell: addresses, daemons, memory, slots and jobs. */
    public TestbedStatus status() {
        TestbedRecord record = readRecord();
        if (record == null || record.plan() == null) {
            return new TestbedStatus(List.of(), List.of(), WanStatus.NONE, StoreStatus.H2);
        }
        List<CellStatus> cells = new ArrayList<>();
        List<HostStatus> hostStatus = new ArrayList<>();
        hostStatus.add(new HostStatus(TestbedPlan.KOALA_NAME, "koala", TestbedPlan.KOALA_ADDRESS, true, List.of()));
        if (record.plan().standbyHost()) {
            // its daemons are a test's or an admin's own (a standby scheduler, its agents): none of the testbed's
            hostStatus.add(new HostStatus(TestbedPlan.STANDBY_NAME, "standby", TestbedPlan.STANDBY_ADDRESS,
                    hosts.exists(TestbedPlan.STANDBY_NAME), List.of()));
        }
        for (CellPlan plan : record.cells()) {
            SgeCell cell = new SgeCell(plan, poll);
            SlurmCell slurm = slurmCell(plan);
            cells.add(plan.slurm() ? cellStatus(slurm) : cellStatus(cell));
            for (HostPlan h : record.plan().hosts()) {
                if (plan.name().equals(h.cell())) {
                    hostStatus.add(plan.slurm() ? hostStatus(slurm, h) : hostStatus(cell, h));
                }
            }
        }
        return new TestbedStatus(hostStatus, cells, wan.status(record.plan()), store.status(record.plan().store()));
    }

    private HostStatus hostStatus(SgeCell cell, HostPlan h) {
        List<HostStatus.Daemon> daemons = new ArrayList<>();
        if (h.role() == HostPlan.Role.HEAD) {
            daemons.add(HostStatus.daemon("sge_qmaster", cell.qmasterPid()));
            if (cell.plan().remote()) {
                daemons.add(HostStatus.daemon("sshd", remoteHead(cell.plan()).sshdPid()));
            }
        } else {
            daemons.add(HostStatus.daemon("sge_execd", cell.execdPid(h.name())));
        }
        String address = h.gridAddress() != null && h.clusterAddress() != null
                ? h.gridAddress() + ", " + h.clusterAddress() : h.address();
        return new HostStatus(h.name(), h.role().name().toLowerCase(java.util.Locale.ROOT), address,
                hosts.exists(h.name()), daemons);
    }

    private HostStatus hostStatus(SlurmCell cell, HostPlan h) {
        HostStatus.Daemon daemon = h.role() == HostPlan.Role.HEAD ? HostStatus.daemon("slurmctld", cell.controllerPid())
                : HostStatus.daemon("slurmd", cell.nodePid(h.name()));
        return new HostStatus(h.name(), h.role().name().toLowerCase(java.util.Locale.ROOT), h.address(),
                hosts.exists(h.name()), List.of(daemon));
    }

    private static CellStatus cellStatus(SlurmCell cell) {
        CellPlan plan = cell.plan();
        Long controller = cell.controllerPid().orElse(null);
        int slurmds = (int) plan.nodeNames().stream().filter(n -> cell.nodePid(n).isPresent()).count();
        SlurmCell.Usage usage = controller == null ? SlurmCell.Usage.UNKNOWN : cell.usage();
        return new CellStatus(plan.name(), plan.head(), plan.remote(), plan.managerPort(), controller, slurmds,
                plan.nodes(), plan.slots(), usage.cpusUsed(), usage.running(), usage.pending());
    }

    private static CellStatus cellStatus(SgeCell cell) {
        CellPlan plan = cell.plan();
        Long qmaster = cell.qmasterPid().orElse(null);
        int execds = (int) plan.nodeNames().stream().filter(n -> cell.execdPid(n).isPresent()).count();
        if (qmaster == null || !cell.answers()) {
            return new CellStatus(plan.name(), plan.head(), plan.remote(), plan.qmasterPort(), qmaster, execds,
                    plan.nodes(), plan.slots(), -1, 0, 0);
        }
        int[] slots = QstatText.clusterQueueSlots(cell.client("qstat", "-g", "c").out(), plan.queue());
        int[] jobs = QstatText.runningAndPending(cell.client("qstat", "-u", "*").out());
        return new CellStatus(plan.name(), plan.head(), plan.remote(), plan.qmasterPort(), qmaster, execds,
                plan.nodes(), slots[1], slots[0], jobs[0], jobs[1]);
    }

    /**
     * The command prefix that runs a command on testbed host {@code host} (its network, UTS and mount namespaces),
     * as root: {@code new ProcessBuilder(concat(commandOn("koala-b"), javaCommand))}; the command keeps this
     * process's environment, and {@code runuser -u ACCOUNT --} after the prefix runs it as another account. The
     * standby host ({@value TestbedPlan#STANDBY_NAME}, {@code testbed up --standby-host}) is the one a second
     * scheduler runs on. Refuses a host the recorded testbed does not have, or whose namespaces are gone.
     */
    public List<String> commandOn(String host) {
        TestbedRecord record = Optional.ofNullable(readRecord()).filter(r -> r.plan() != null)
                .orElseThrow(() -> new TestbedException("no testbed recorded under " + koalaHome));
        if (record.plan().hosts().stream().noneMatch(h -> h.name().equals(host))) {
            throw new TestbedException("no testbed host " + host + (host.equals(TestbedPlan.STANDBY_NAME)
                    ? " (bring the testbed up with --standby-host)" : ""));
        }
        if (!hosts.exists(host)) {
            throw new TestbedException("testbed host " + host + " is not there (bin/koala testbed up makes it again)");
        }
        return Hosts.enter(host);
    }

    // ---- for tests of outages ----------------------------------------------------------------

    /** Stops the qmaster of {@code cell} (its execds and jobs go on, as when a head node fails). */
    public void stopQmaster(String cell) {
        SgeCell c = cell(cell);
        c.qmasterPid().ifPresent(pid -> c.stop(pid, Duration.ofSeconds(30)));
    }

    /** Starts the qmaster of {@code cell} again and waits until its execds have reported back. */
    public void startQmaster(String cell) {
        SgeCell c = cell(cell);
        if (c.qmasterPid().isEmpty()) {
            c.startQmaster(progress);
            c.awaitQueueReady();
        }
    }

    /** Stops the slurmctld of Slurm cell {@code cell} (its slurmds and jobs go on, as when the head node fails). */
    public void stopSlurmController(String cell) {
        slurmCell(recordedCell(cell)).stopController(Duration.ofSeconds(10));
    }

    /** Starts the slurmctld of Slurm cell {@code cell} again and waits until every node of it responds. */
    public void startSlurmController(String cell) {
        slurmCell(recordedCell(cell)).startController(progress);
    }

    /**
     * Stops the SSH server of remote cell {@code cell}'s head node and every session it serves, as
     * when the head node drops off the network; its qmaster, agent and jobs go on.
     */
    public void stopSshd(String cell) {
        SgeCell c = cell(cell);
        for (long pid : hosts.pids(c.plan().head())) {
            ProcessHandle.of(pid).filter(p -> p.info().command().map(x -> x.endsWith("/sshd")).orElse(false))
                    .ifPresent(ProcessHandle::destroyForcibly);
        }
        poll.until(() -> remoteHead(c.plan()).sshdPid().isEmpty(), Duration.ofSeconds(10));
    }

    /** Starts the SSH server of remote cell {@code cell}'s head node again, with the same host key. */
    public void startSshd(String cell) {
        SgeCell c = cell(cell);
        if (remoteHead(c.plan()).sshdPid().isEmpty()) {
            remoteHead(c.plan()).startSshd(progress);
        }
    }

    /**
     * Cuts the link of cell {@code cell}'s head node to the grid's network, as a pulled cable: its
     * end of the veth pair on the grid's bridge goes down, so nothing passes between this machine (or
     * another cell) and the head node, while every process there runs on and the head node still
     * reaches its own compute nodes. Connections over the link are not closed: their packets are lost.
     */
    public void cutLink(String cell) {
        gridLink(cell, "down");
    }

    /** Mends the link {@link #cutLink} cut; nothing if it is up. */
    public void mendLink(String cell) {
        gridLink(cell, "up");
    }

    /**
     * Cuts testbed host {@code host} (the standby host {@value TestbedPlan#STANDBY_NAME}, say) from the grid's
     * network, as {@link #cutLink} a head node: its processes run on, and reach nothing beyond it.
     */
    public void cutHostLink(String host) {
        hostLink(host, "down");
    }

    /** Mends the link {@link #cutHostLink} cut; nothing if it is up. */
    public void mendHostLink(String host) {
        hostLink(host, "up");
    }

    private void gridLink(String cell, String state) {
        TestbedRecord record = Optional.ofNullable(readRecord()).filter(r -> r.plan() != null)
                .orElseThrow(() -> new TestbedException("no testbed recorded under " + koalaHome));
        hostLink(record.plan().cell(cell).head(), state);
    }

    private void hostLink(String host, String state) {
        TestbedRecord record = Optional.ofNullable(readRecord()).filter(r -> r.plan() != null)
                .orElseThrow(() -> new TestbedException("no testbed recorded under " + koalaHome));
        Shell.root().check("ip", "link", "set", record.plan().host(host).link(TestbedPlan.GRID_BRIDGE), state);
    }

    /** A home directory on remote cell {@code cell} as this machine sees it (its hosts see it under /home). */
    public static Path remoteHome(String cell, String account) {
        return SITES.resolve(cell).resolve("home").resolve(account);
    }

    private SgeCell cell(String name) {
        return new SgeCell(recordedCell(name), poll);
    }

    private CellPlan recordedCell(String name) {
        TestbedRecord record = Optional.ofNullable(readRecord()).filter(r -> r.plan() != null)
                .orElseThrow(() -> new TestbedException("no testbed recorded under " + koalaHome));
        return record.plan().cell(name);
    }

    private TestbedRecord readRecord() {
        return TestbedRecord.read(koalaHome);
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

    /**
     * The grid's ordinary users, as a head node has them: two accounts that share nothing with KOALA
     * ({@link #USERS}), so that tests and the demo can act as someone who is neither root nor KOALA.
     */
    private List<String> ensureUsers() {
        Shell shell = Shell.root();
        List<String> made = new ArrayList<>();
        for (String user : USERS) {
            if (!shell.run("id", "-u", user).ok()) {
                progress.step("creating user " + user + " (an ordinary user of the grid)");
                shell.check("useradd", "--create-home", "--shell", "/bin/bash", "--comment", "KOALA testbed user", user);
                made.add("created user " + user);
            }
        }
        return made;
    }

    private static String hostname() {
        return Shell.root().check("hostname").out().trim();
    }

    private static void requireRoot() {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new TestbedException("the testbed makes hosts and starts SGE daemons: run it as root");
        }
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * The copy earlier testbeds wrote into KOALA_HOME, which would shadow the machine's for root
     * ({@link KoalaHome#gridConfig}); only one the testbed wrote is removed.
     */
    private List<String> removeOldConfig() {
        Path old = koalaHome.resolve("grid.properties");
        try {
            if (Files.isRegularFile(old) && Files.readString(old).startsWith(GridConfigFile.HEADER)) {
                Files.delete(old);
                return List.of("removed " + old + " (the grid configuration is now " + gridConfig() + ")");
            }
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean writeIfChanged(Path file, String content) {
        try {
            if (Files.exists(file) && Files.readString(file).equals(content)) {
                return false;
            }
            Files.createDirectories(file.getParent(), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")));
            Files.writeString(file, content);
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<String> lines(String text) {
        return text.lines();
    }

    static List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<>(names);
        Collections.sort(copy);
        return copy;
    }
}
