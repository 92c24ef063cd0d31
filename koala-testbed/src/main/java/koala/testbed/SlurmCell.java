package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.common.time.Poll;

/**
 * A cell of the testbed that runs Slurm (Debian's 22.05): {@code slurmctld} on its head node, a
 * {@code slurmd} on each compute node, authenticated by the machine's one {@code munged} (its socket is a
 * file every host's view shares). Its files are under {@code /srv/koala-testbed/<cell>/slurm}: {@code
 * slurm.conf} and {@code gres.conf} (clients find them through {@code SLURM_CONF}), the controller's saved
 * state, each daemon's log and pid file, and the fake GPU devices (character devices, which Slurm insists on).
 *
 * <p>What was learnt running Slurm in these namespaces (see the notes on Slurm here): slurmd needs
 * {@code /sys/fs/cgroup}, which a host's mount namespace keeps (entered with {@code nsenter}); each
 * daemon takes its host's name from the UTS namespace, as the configuration names it; nodes declare
 * more CPUs and memory than the machine has ({@code config_overrides}). Processes of a job are tracked by
 * their process tree ({@code proctrack/linuxproc}): the machine's cgroups are not the testbed's to
 * divide.
 */
final class SlurmCell {
    /** Memory of a node whose shape gives none, in MiB: Slurm books memory ({@code CR_Core_Memory}). */
    static final long DEFAULT_NODE_MIB = 4096;
    /** What a job that asks for no memory is given per CPU, in MiB (else it would be given the whole node's). */
    static final long DEFAULT_MIB_PER_CPU = 256;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** Where slurmctld listens: Slurm's default {@code SlurmctldPort}. */
    static final int CONTROLLER_PORT = 6817;
    private static final Path MUNGE_PID = Path.of("/run/munge/munged.pid");

    private final CellPlan plan;
    private final Path dir;
    private final Poll poll;

    SlurmCell(CellPlan plan, Path dir, Poll poll) {
        this.plan = plan;
        this.dir = dir;
        this.poll = poll;
    }

    CellPlan plan() {
        return plan;
    }

    Path conf() {
        return dir.resolve("slurm.conf");
    }

    /** The variables a Slurm client needs for this cell: where its configuration is. */
    Map<String, String> environment() {
        return Map.of("SLURM_CONF", conf().toString());
    }

    /** {@code slurm.conf} of {@code cell}, its files under {@code dir}. */
    static String slurmConf(CellPlan cell, Path dir, String headAddress) {
        StringBuilder s = new StringBuilder("# written by bin/koala testbed up: Slurm cell ").append(cell.name())
                .append('\n');
        for (String[] kv : new String[][]{
                {"ClusterName", cell.name()},
                {"SlurmctldHost", cell.head() + "(" + headAddress + ")"},
                {"SlurmUser", "root"},
                {"AuthType", "auth/munge"},
                {"CredType", "cred/munge"},
                {"StateSaveLocation", dir.resolve("state/ctl").toString()},
                {"SlurmdSpoolDir", dir.resolve("state/%n").toString()},
                {"SlurmctldPidFile", dir.resolve("run/slurmctld.pid").toString()},
                {"SlurmdPidFile", dir.resolve("run/slurmd-%n.pid").toString()},
                {"SlurmctldLogFile", dir.resolve("log/slurmctld.log").toString()},
                {"SlurmdLogFile", dir.resolve("log/slurmd-%n.log").toString()},
                {"ProctrackType", "proctrack/linuxproc"},
                {"TaskPlugin", "task/none"},
                {"JobAcctGatherType", "jobacct_gather/none"},
                {"AccountingStorageType", "accounting_storage/none"},
                {"JobCompType", "jobcomp/filetxt"},
                {"JobCompLoc", dir.resolve("log/jobcomp.txt").toString()},
                {"SchedulerType", "sched/backfill"},
                {"SelectType", "select/cons_tres"},
                {"SelectTypeParameters", "CR_Core_Memory"},
                {"DefMemPerCPU", Long.toString(DEFAULT_MIB_PER_CPU)},
                {"MpiDefault", "none"},
                {"ReturnToService", "2"},
                {"SlurmdParameters", "config_overrides"},
                {"KillWait", "5"},
                {"GresTypes", "gpu"}}) {
            s.append(kv[0]).append('=').append(kv[1]).append('\n');
        }
        for (int i = 1; i <= cell.nodes(); i++) {
            s.append("NodeName=").append(cell.node(i)).append(" NodeAddr=").append(TestbedPlan.nodeAddress(cell, i))
                    .append(" CPUs=").append(cell.slotsOf(i)).append(" RealMemory=")
                    .append(memoryOf(cell, i)).append(gpusOf(cell, i) > 0 ? " Gres=gpu:" + gpusOf(cell, i) : "")
                    .append(" State=UNKNOWN\n");
        }
        return s.append("PartitionName=").append(cell.name()).append(" Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n")
                .toString();
    }

    /** {@code gres.conf}: each GPU host's devices, fake ones under {@code dir/dev}. */
    static String gresConf(CellPlan cell, Path dir) {
        StringBuilder s = new StringBuilder("# written by bin/koala testbed up: the GPUs of Slurm cell ")
                .append(cell.name()).append(" (character devices of no driver)\nAutoDetect=off\n");
        for (int i = 1; i <= cell.nodes(); i++) {
            int gpus = gpusOf(cell, i);
            if (gpus > 0) {
                s.append("NodeName=").append(cell.node(i)).append(" Name=gpu File=").append(dir.resolve("dev"))
                        .append("/nvidia").append(gpus == 1 ? "0" : "[0-" + (gpus - 1) + "]").append('\n');
            }
        }
        return s.toString();
    }

    static long memoryOf(CellPlan cell, int i) {
        HostShape shape = cell.shapeOf(i);
        return shape != null && shape.memoryMib() != null ? shape.memoryMib() : DEFAULT_NODE_MIB;
    }

    static int gpusOf(CellPlan cell, int i) {
        HostShape shape = cell.shapeOf(i);
        return shape == null ? 0 : shape.gpus();
    }

    /** Writes the configuration and makes the directories and devices; returns what changed. */
    List<String> configure(String headAddress) {
        List<String> changes = new ArrayList<>();
        try {
            for (String sub : List.of("state/ctl", "run", "log", "dev")) {
                Files.createDirectories(dir.resolve(sub));
            }
            for (int i = 1; i <= plan.nodes(); i++) {
                Files.createDirectories(dir.resolve("state").resolve(plan.node(i)));
            }
            int gpus = 0;
            for (int i = 1; i <= plan.nodes(); i++) {
                gpus = Math.max(gpus, gpusOf(plan, i));
            }
            for (int g = 0; g < gpus; g++) {
                Path device = dir.resolve("dev/nvidia" + g);
                if (!Files.exists(device)) {
                    Shell.root().check("mknod", device.toString(), "c", "195", Integer.toString(g));
                }
            }
            if (write(conf(), slurmConf(plan, dir, headAddress)) | write(dir.resolve("gres.conf"), gresConf(plan, dir))) {
                changes.add("wrote " + conf() + " and gres.conf");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return changes;
    }

    private static boolean write(Path file, String text) throws IOException {
        if (Files.exists(file) && Files.readString(file).equals(text)) {
            return false;
        }
        Files.writeString(file, text);
        return true;
    }

    /** Starts the machine's munged when it does not run; returns what changed. */
    static List<String> ensureMunge() {
        if (PidFile.daemon(MUNGE_PID, "munged").isPresent()) {
            return List.of();
        }
        Shell root = Shell.root();
        root.check("install", "-d", "-o", "munge", "-g", "munge", "-m", "755", "/run/munge");
        root.check("runuser", "-u", "munge", "--", "/usr/sbin/munged");
        return List.of("started munged");
    }

    Optional<Long> controllerPid() {
        return daemon(dir.resolve("run/slurmctld.pid"), "slurmctld");
    }

    Optional<Long> nodePid(String node) {
        return daemon(dir.resolve("run/slurmd-" + node + ".pid"), "slurmd");
    }

    /** Debian's daemons are alternatives: {@code /usr/sbin/slurmctld} runs {@code slurmctld-wlm}. */
    private static Optional<Long> daemon(Path pidFile, String name) {
        return PidFile.daemon(pidFile, name).or(() -> PidFile.daemon(pidFile, name + "-wlm"));
    }

    /** Starts what does not run: the controller, then each node's slurmd; waits until every node is idle. */
    List<String> start(Progress progress) {
        List<String> changes = new ArrayList<>();
        if (startControllerIfStopped(progress)) {
            changes.add(plan.name() + ": started slurmctld on " + plan.head());
        }
        for (String node : plan.nodeNames()) {
            if (nodePid(node).isEmpty()) {
                Hosts.shell(node).with(environment()).check("/usr/sbin/slurmd", "-f", conf().toString());
                changes.add(plan.name() + ": started slurmd on " + node);
            }
        }
        if (!poll.until(() -> idleNodes() == plan.nodes(), START_TIMEOUT)) {
            throw new TestbedException(plan.name() + ": " + idleNodes() + " of " + plan.nodes() + " Slurm nodes idle after "
                    + START_TIMEOUT.toSeconds() + " s; see " + dir.resolve("log"));
        }
        return changes;
    }

    /** Stops the controller alone (SIGTERM, then SIGKILL after {@code grace}): the slurmds and their jobs go on. */
    void stopController(Duration grace) {
        controllerPid().ifPresent(pid -> kill(pid, grace));
    }

    /**
     * Starts the controller when it does not run and waits until it answers with every node responding (idle
     * or running jobs): it takes its jobs back from its state directory and the slurmds register again.
     */
    void startController(Progress progress) {
        startControllerIfStopped(progress);
        if (!poll.until(() -> respondingNodes() == plan.nodes(), START_TIMEOUT)) {
            throw new TestbedException(plan.name() + ": " + respondingNodes() + " of " + plan.nodes() + " Slurm nodes "
                    + "respond after " + START_TIMEOUT.toSeconds() + " s; see " + dir.resolve("log"));
        }
    }

    /** Starts slurmctld on the head node unless it runs; true when it started it. */
    private boolean startControllerIfStopped(Progress progress) {
        if (controllerPid().isPresent()) {
            return false;
        }
        progress.step(plan.name() + ": starting slurmctld on " + plan.head());
        Hosts.shell(plan.head()).with(environment()).check("/usr/sbin/slurmctld", "-f", conf().toString());
        return true;
    }

    /** Nodes up at the controller, free or running jobs ({@code *} marks one that does not respond). */
    int respondingNodes() {
        Shell.Result r = client().run("sinfo", "-h", "-N", "-o", "%N %t");
        return r.ok() ? (int) r.out().lines().filter(l -> l.matches("\\S+ (idle|alloc|mix)")).count() : 0;
    }

    /** Nodes Slurm has up and free ({@code sinfo}), 0 when the controller does not answer. */
    int idleNodes() {
        Shell.Result r = client().run("sinfo", "-h", "-N", "-o", "%N %t");
        if (!r.ok()) {
            return 0;
        }
        return (int) r.out().lines().filter(l -> l.endsWith(" idle")).count();
    }

    /** CPUs allocated and jobs running and waiting, as the controller says; {@link #UNKNOWN} when it does not answer. */
    record Usage(int cpusUsed, int running, int pending) {
        static final Usage UNKNOWN = new Usage(-1, 0, 0);
    }

    Usage usage() {
        Shell client = client();
        Shell.Result cpus = client.run("sinfo", "-h", "-o", "%C");
        Shell.Result jobs = client.run("squeue", "-h", "-o", "%T");
        if (!cpus.ok() || !jobs.ok()) {
            return Usage.UNKNOWN;
        }
        return usage(cpus.out(), jobs.out());
    }

    /** From {@code sinfo -h -o %C} (allocated/idle/other/total) and {@code squeue -h -o %T} (a state a line). */
    static Usage usage(String cpus, String jobs) {
        String[] parts = cpus.strip().split("/");
        int used = parts.length == 4 && parts[0].matches("\\d+") ? Integer.parseInt(parts[0]) : -1;
        List<String> states = jobs.lines().map(String::strip).toList();
        return new Usage(used, (int) states.stream().filter("RUNNING"::equals).count(),
                (int) states.stream().filter("PENDING"::equals).count());
    }

    /**
     * A Slurm client of the cell: on this machine for a local cell; on its head node for a remote one, whose
     * controller listens on the cell's own network, which this machine does not join.
     */
    Shell client() {
        return (plan.remote() ? Hosts.shell(plan.head()) : Shell.root()).with(environment());
    }

    /** True when the controller answers a client. */
    boolean answers() {
        return client().run("sinfo", "-h").ok();
    }

    /** Stops every daemon of the cell (SIGTERM, then SIGKILL after {@code grace}); returns what it stopped. */
    List<String> stop(Duration grace) {
        List<String> stopped = new ArrayList<>();
        for (String node : plan.nodeNames()) {
            nodePid(node).ifPresent(pid -> {
                kill(pid, grace);
                stopped.add(plan.name() + ": stopped slurmd on " + node);
            });
        }
        controllerPid().ifPresent(pid -> {
            kill(pid, grace);
            stopped.add(plan.name() + ": stopped slurmctld");
        });
        return stopped;
    }

    private void kill(long pid, Duration grace) {
        ProcessHandle.of(pid).ifPresent(p -> {
            p.destroy();
            if (!poll.until(() -> !p.isAlive(), grace)) {
                p.destroyForcibly();
            }
        });
    }
}
