package koala.testbed;

import java.util.List;
import java.util.stream.Collectors;
import koala.grid.DrmaaInstall;

/** The grid configuration that describes the testbed's cells as KOALA sites. */
final class GridConfigFile {
    private GridConfigFile() {
    }

    /** The file's first line, by which the testbed knows a configuration it wrote. */
    static final String HEADER = "# KOALA grid configuration, written by 'bin/koala testbed up'.";

    /**
     * @param remoteHead how KOALA reaches a remote cell's head node (its key and known host key)
     */
    static String render(TestbedPlan plan, String agentUser, java.util.function.Function<CellPlan, RemoteHead> remoteHead) {
        int cores = Runtime.getRuntime().availableProcessors();
        StringBuilder s = new StringBuilder();
        s.append(HEADER).append('\n')
                .append("# One site per SGE cell of the local testbed; see docs/admin-guide.md, \"Configuration\".\n\n")
                .append("grid.sites = ").append(plan.cells().stream().map(CellPlan::name).collect(Collectors.joining(", ")))
                .append("\n# the KOALA host as the testbed's hosts reach it (the scheduler's node endpoint, runners)\n")
                .append("grid.host = ").append(TestbedPlan.KOALA_NAME).append('\n');
        if (plan.store() == TestbedPlan.Store.POSTGRES) {
            s.append("# the scheduler's store: the testbed's PostgreSQL on the KOALA host (testbed up --store postgres),\n")
                    .append("# which schedulers on any host of the grid share; the password file is root's alone\n");
            TestbedStore.gridSettings().forEach((k, v) -> s.append(k).append(" = ").append(v).append('\n'));
        }
        for (CellPlan cell : plan.cells()) {
            String p = "site." + cell.name() + ".";
            if (cell.slurm()) {
                s.append(slurmSite(cell, agentUser, cores, cell.remote() ? remoteHead.apply(cell) : null));
                continue;
            }
            s.append("\n# ").append(cell.name()).append(": ").append(cell.nodes()).append(" compute nodes of ")
                    .append(cell.slotsPerNode()).append(" slot(s), qmaster on ").append(cell.head())
                    .append(cell.remote() ? "; a remote site, reached by SSH to its head node only" : "").append('\n')
                    .append(cell.shaped() ? "# unequal hosts (their complex_values, which the site agent reads with qhost -F): "
                            + cell.shape().stream().map(HostShape::describe).collect(Collectors.joining("; "))
                            + (cell.shape().stream().mapToInt(HostShape::count).sum() < cell.nodes() ? "; the others as above"
                            : "") + "\n" : "")
                    .append(p).append("sge.root = ").append(SgeCell.SGE_ROOT).append('\n')
                    .append(p).append("sge.cell = ").append(cell.name()).append('\n')
                    .append(p).append("sge.qmasterPort = ").append(cell.qmasterPort()).append('\n')
                    .append(p).append("sge.execdPort = ").append(cell.execdPort()).append('\n')
                    .append(p).append("sge.bin = /usr/bin\n");
            s.append(cell.remote() ? ssh(cell, agentUser, remoteHead.apply(cell)) : localAgent(cell, agentUser));
            s.append("# DRMAA native specification for one node; a site whose nodes have several slots asks for a whole one\n")
                    .append(p).append("node.nativeSpec = ").append(cell.slotsPerNode() > 1 ? "-l exclusive=true" : "")
                    .append('\n')
                    .append(p).append("node.count = ").append(cell.nodes()).append('\n')
                    .append("# the slots of one node: the ranks an MPI job runs on it\n")
                    .append(p).append("node.slots = ").append(cell.slotsPerNode()).append('\n')
                    .append("# the testbed's hosts share this machine's cores\n")
                    .append(p).append("node.cores = ").append(cores).append('\n')
                    .append(p).append("drmaa.jar = ").append(DrmaaInstall.DEBIAN_JAR).append('\n')
                    .append(p).append("drmaa.library = ").append(DrmaaInstall.DEBIAN_LIBRARY).append('\n')
                    .append(p).append("drmaa.preload = ").append(DrmaaInstall.DEBIAN_JEMALLOC).append('\n');
        }
        return s.append(FILE_CATALOG).toString();
    }

    /** A local cell's agent: on this machine as {@code agentUser}, its nodes seeing the cell's shared directory. */
    private static String localAgent(CellPlan cell, String agentUser) {
        String p = "site." + cell.name() + ".";
        return p + "agent.user = " + agentUser + "\n"
                + p + "agent.port = 0\n"
                + "# seen by the site's compute nodes: KOALA's jars and the pilots' output\n"
                + p + "shared = " + Testbed.sharedDir(cell.name()) + "\n";
    }

    /** How KOALA reaches a remote cell's head node: SSH as {@code agentUser}, the testbed's keys. */
    private static String ssh(CellPlan cell, String agentUser, RemoteHead head) {
        String p = "site." + cell.name() + ".";
        return p + "ssh.host = " + cell.head() + "\n"
                + p + "ssh.user = " + agentUser + "\n"
                + p + "ssh.key = " + head.key() + "\n"
                + p + "ssh.knownHosts = " + head.knownHosts() + "\n"
                + "# the head node's address on the cluster's own network: pilots call back through a relay there\n"
                + p + "ssh.relayHost = " + cell.head() + "\n";
    }

    /**
     * A Slurm cell as a site: its slurm.conf instead of SGE's cell and DRMAA; a local one's agent on this machine,
     * a remote one's ({@code head} not null) on its head node over SSH, where the same slurm.conf is.
     */
    private static String slurmSite(CellPlan cell, String agentUser, int cores, RemoteHead head) {
        String p = "site." + cell.name() + ".";
        return "\n# " + cell.name() + ": a Slurm cluster of " + cell.nodes() + " compute nodes of " + cell.slotsPerNode()
                + " CPUs, slurmctld on " + cell.head() + (head != null ? "; a remote site, reached by SSH to its head "
                + "node only" : "") + "\n"
                + p + "manager = slurm\n"
                + p + "slurm.conf = " + Testbed.SITES.resolve(cell.name()).resolve("slurm/slurm.conf") + "\n"
                + (head != null ? ssh(cell, agentUser, head) : localAgent(cell, agentUser))
                + "# KOALA's nodes: a node of the defaults is one CPU of a host\n"
                + p + "node.count = " + cell.slots() + "\n"
                + "# the testbed's hosts share this machine's cores\n"
                + p + "node.cores = " + cores + "\n";
    }

    /** A configuration to write, and what became of an admin's lines in the one it replaces. */
    record Merged(String text, List<String> notes) {
    }

    /** The heading under which an admin's own settings are carried from one testbed file to the next. */
    static final String KEPT = "# Added by an admin: kept by 'bin/koala testbed up' when it rewrites this file.";

    /**
     * {@code rendered}, the testbed's configuration, with what an admin added to {@code previous}:
     * every setting whose key the testbed does not write is kept (with the comment lines just above
     * it) under {@link #KEPT}; a key the testbed writes gets the testbed's value, and an admin's other
     * value for it is named in the notes. A file the testbed did not write (no {@link #HEADER}) is an
     * admin's own and is not merged: the caller refuses to replace it.
     */
    static Merged merge(String previous, String rendered) {
        return merge(previous, rendered, TestbedStore.gridSettings());
    }

    /**
     * As {@link #merge(String, String)}, where {@code sometimes} are settings the testbed writes only in some
     * plans (the store of {@code --store postgres}): one of them that {@code rendered} lacks is dropped when it has
     * the testbed's value, as the testbed wrote it, and kept as an admin's own when it has another.
     */
    static Merged merge(String previous, String rendered, java.util.Map<String, String> sometimes) {
        java.util.Map<String, String> ours = settings(rendered);
        StringBuilder kept = new StringBuilder();
        List<String> notes = new java.util.ArrayList<>();
        List<String> comments = new java.util.ArrayList<>();
        boolean inKept = false;
        for (String line : previous.lines().toList()) {
            String t = line.strip();
            if (t.equals(KEPT)) {
                inKept = true;
                comments.clear();
            } else if (t.isEmpty()) {
                comments.clear();
            } else if (t.startsWith("#") || t.startsWith("!")) {
                comments.add(line);
            } else {
                String key = key(t);
                if (!ours.containsKey(key) && value(t).equals(sometimes.get(key))) {
                    notes.add("dropped " + key + " (the testbed's, which this plan does not write)");
                } else if (!ours.containsKey(key)) {
                    comments.forEach(c -> kept.append(c).append('\n'));
                    kept.append(line).append('\n');
                    notes.add("kept " + key + " (added by an admin)");
                } else if (!ours.get(key).equals(value(t)) && !inKept) {
                    notes.add(key + ": the file said '" + value(t) + "', the testbed's cells need '" + ours.get(key)
                            + "': replaced");
                }
                comments.clear();
            }
        }
        String text = kept.length() == 0 ? rendered : rendered + "\n" + KEPT + "\n" + kept;
        return new Merged(text, notes);
    }

    /**
     * The settings the testbed may have written: the store's ({@code --store postgres}) and those of {@code
     * renderedBefore}, what the earlier plan wrote (a cell this plan no longer has, such as the Slurm cell).
     */
    static java.util.Map<String, String> written(String renderedBefore) {
        java.util.Map<String, String> written = new java.util.LinkedHashMap<>(TestbedStore.gridSettings());
        written.putAll(settings(renderedBefore));
        return written;
    }

    private static java.util.Map<String, String> settings(String text) {
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        text.lines().map(String::strip).filter(t -> !t.isEmpty() && !t.startsWith("#") && !t.startsWith("!"))
                .forEach(t -> settings.put(key(t), value(t)));
        return settings;
    }

    private static String key(String line) {
        int at = separator(line);
        return (at < 0 ? line : line.substring(0, at)).strip();
    }

    private static String value(String line) {
        int at = separator(line);
        return at < 0 ? "" : line.substring(at + 1).strip();
    }

    private static int separator(String line) {
        int eq = line.indexOf('=');
        int colon = line.indexOf(':');
        return eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
    }

    /** A small file catalog so that Close-to-Files has something to decide on (jdf-examples/close-to-files.jdf). */
    private static final String FILE_CATALOG = """

            # Input files for Close-to-Files: logical name, size, the sites holding a copy, and the
            # bandwidth between sites (MB/s) from which transfer times are estimated.
            files = genome.dat, reads.dat
            file.genome.dat.size = 4G
            file.genome.dat.sites = fs1
            file.reads.dat.size = 512M
            file.reads.dat.sites = fs2
            bandwidth.default = 100

            # Provisioning defaults of framework instances per site (bin/koala config shows the
            # effective values and where each comes from); a site's fMax caps what a JDF asks for:
            # site.fs0.provisioning.fMax = 20
            # site.fs0.provisioning.tIdleFactor = 6
            # site.fs0.provisioning.uMin = 40
            # site.fs0.provisioning.uMax = 50
            # site.fs0.provisioning.samplePeriod = 40
            # site.fs0.provisioning.orchestratorThreshold = 45
            # and each instance's claim when the grid is full (weight and minShare cap what a JDF asks):
            # site.fs0.provisioning.weight = 1
            # site.fs0.provisioning.minShare = 0
            """;
}
