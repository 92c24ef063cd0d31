package koala.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.NodeTask;

/**
 * How the first node of an MPI job runs it: the component's command under Open MPI's {@code mpirun},
 * over a host file of the job's nodes in rank order, with Open MPI's daemons on the other nodes started
 * through KOALA rather than SSH: {@code plm_rsh_agent} is a script of this launcher's that asks the
 * scheduler ({@link MpiAgent}) to have the node on that host run the daemon, so every rank lives in
 * its node's process tree and dies with the job. The daemons stay attached
 * ({@code orte_leave_session_attached}): a daemon's node lives as long as its daemon.
 */
final class MpiRun {
    private MpiRun() {
    }

    /** The files this run needs (host file, launch agent) in {@code dir}; the task as this node runs it. */
    static NodeTask under(NodeTask task, Path dir, String java, String classpath) throws IOException {
        Path hostfile = Files.writeString(dir.resolve("hosts"), hostfile(task.mpiHosts()));
        Path agent = dir.resolve(AGENT);
        Files.writeString(agent, "#!/bin/sh\n# Open MPI's launch agent: asks KOALA to start the daemon on the job's node there\n"
                + "exec " + quote(java) + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp " + quote(classpath)
                + " koala.node.MpiAgent \"$@\"\n");
        Files.setPosixFilePermissions(agent, PosixFilePermissions.fromString("rwx------"));
        // the daemons check that the agent exists where they run too (they could start others): named
        // through the PATH, found in this node's run directory here and as plain sh elsewhere
        List<String> arguments = new ArrayList<>(List.of("--hostfile", hostfile.toString(),
                "--mca", "plm_rsh_agent", AGENT + " : sh",
                "--mca", "plm_rsh_no_tree_spawn", "1", "--mca", "orte_leave_session_attached", "1",
                "--mca", "btl", "tcp,self",
                // a pilot that claims cores runs in SGE's parallel environment, and every pilot on a Slurm site in a
                // Slurm job: Open MPI would take the pilot's own allocation (PE_HOSTFILE, SLURM_JOB_NODELIST: its one
                // host) for the world's, and start daemons with qrsh or srun
                "--mca", "ras", "^gridengine,slurm", "--mca", "plm", "rsh"));
        arguments.addAll(apps(task));
        Map<String, String> env = new LinkedHashMap<>(task.environment());
        env.put("PATH", dir + ":" + task.environment().getOrDefault("PATH", System.getenv().getOrDefault("PATH",
                "/usr/bin:/bin")));
        return new NodeTask(task.action(), "mpirun", arguments, env, task.directory(), task.stdout(),
                task.stderr(), task.maxWallSeconds(), task.mpiHosts());
    }

    /**
     * The world's programs: every rank the task's command, or (MPMD) each component's program on its
     * ranks, {@code -np 2 A : -np 2 B}, which Open MPI maps onto the host file's slots in order.
     */
    static List<String> apps(NodeTask task) {
        List<NodeTask.MpiApp> apps = task.mpiApps() != null ? task.mpiApps()
                : List.of(new NodeTask.MpiApp(task.mpiHosts().size(), task.executable(), task.arguments()));
        List<String> line = new ArrayList<>();
        for (NodeTask.MpiApp app : apps) {
            if (!line.isEmpty()) {
                line.add(":");
            }
            line.addAll(List.of("-np", Integer.toString(app.ranks()), app.executable()));
            line.addAll(app.arguments());
        }
        return line;
    }

    /** The launch agent's name, in the run's directory on the first node only. */
    static final String AGENT = "koala-rsh";

    /** One line per host, its slots the times it appears (hosts of one component are next to each other). */
    static String hostfile(List<String> hosts) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        hosts.forEach(h -> slots.merge(h, 1, Integer::sum));
        StringBuilder s = new StringBuilder();
        slots.forEach((host, n) -> s.append(host).append(" slots=").append(n).append('\n'));
        return s.toString();
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
