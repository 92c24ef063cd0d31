package koala.grid;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One cluster of the grid as the configuration describes it.
 *
 * @param agentUser  the unprivileged account the site agent (and so every pilot job) runs as
 * @param agentPort  port of the site agent's HTTP API, 0 for any free port
 * @param nodeNativeSpec DRMAA native specification that asks SGE for one KOALA node
 * @param nodes      expected number of nodes, a hint for planning before the first snapshot
 * @param drmaa      where this site's DRMAA binding and native library are
 * @param ssh        for a remote site, how to reach its head node; empty for a cell on this machine
 * @param shared     a local site's directory that its compute nodes see (KOALA's jars and the pilots'
 *                   output go there); empty on a single host, where the nodes see this machine's files
 * @param nodeCores  cores of one node: a node's CPU utilization is a share of them
 * @param nodeSlots  SGE slots one node holds, so the ranks an MPI job runs on it: 1 where a pilot is one
 *                   slot; the host's slots where {@code nodeNativeSpec} claims a whole host
 * @param slurm      for a site that runs Slurm ({@code site.S.manager = slurm}), its cluster; empty for an SGE
 *                   cell. A Slurm site's {@code cell} and {@code drmaa} are unused (the defaults, the cell named
 *                   after the site)
 */
public record SiteConfig(String name, CellEnvironment cell, String agentUser, int agentPort,
                         String nodeNativeSpec, int nodes, DrmaaInstall drmaa, Optional<SshConfig> ssh,
                         Optional<Path> shared, int nodeCores, int nodeSlots, Optional<SlurmEnvironment> slurm) {
    /** {@code site.S.manager} of an SGE cell, the default. */
    public static final String SGE = "sge";
    /** {@code site.S.manager} of a Slurm cluster. */
    public static final String SLURM = "slurm";

    /** An SGE site. */
    public SiteConfig(String name, CellEnvironment cell, String agentUser, int agentPort, String nodeNativeSpec,
                      int nodes, DrmaaInstall drmaa, Optional<SshConfig> ssh, Optional<Path> shared, int nodeCores,
                      int nodeSlots) {
        this(name, cell, agentUser, agentPort, nodeNativeSpec, nodes, drmaa, ssh, shared, nodeCores, nodeSlots,
                Optional.empty());
    }

    /** Which resource manager the site runs: {@value #SGE} or {@value #SLURM}. */
    public String manager() {
        return slurm.isPresent() ? SLURM : SGE;
    }

    /** A site whose node is one slot. */
    public SiteConfig(String name, CellEnvironment cell, String agentUser, int agentPort, String nodeNativeSpec,
                      int nodes, DrmaaInstall drmaa, Optional<SshConfig> ssh, Optional<Path> shared, int nodeCores) {
        this(name, cell, agentUser, agentPort, nodeNativeSpec, nodes, drmaa, ssh, shared, nodeCores, 1);
    }

    /** A site as before shared directories and node sizes: nodes see this machine's files, one core each. */
    public SiteConfig(String name, CellEnvironment cell, String agentUser, int agentPort, String nodeNativeSpec,
                      int nodes, DrmaaInstall drmaa, Optional<SshConfig> ssh) {
        this(name, cell, agentUser, agentPort, nodeNativeSpec, nodes, drmaa, ssh, Optional.empty(), 1);
    }

    /** This site as an agent running as {@code user} sees it: a user's own agent submits and kills that user's pilots. */
    public SiteConfig withAgentUser(String user) {
        return new SiteConfig(name, cell, user, agentPort, nodeNativeSpec, nodes, drmaa, ssh, shared, nodeCores,
                nodeSlots, slurm);
    }

    public boolean remote() {
        return ssh.isPresent();
    }

    /** The network of the grid's own sites, whose nodes reach each other and the KOALA host. */
    public static final String GRID_NETWORK = "grid";

    /**
     * The network this site's nodes are on: the grid's own ({@value #GRID_NETWORK}) for a site whose
     * nodes the KOALA host reaches; a remote site's private one, named after the site, for its nodes,
     * which reach only each other and their head node.
     */
    public String network() {
        return remote() ? name : GRID_NETWORK;
    }

    /**
     * This site as a grid configuration of its own, for an agent started on a remote head node: the
     * cell and DRMAA keys (paths there) and no SSH keys, since that agent runs on the cell's side.
     */
    public String agentProperties() {
        String p = "site." + name + ".";
        StringBuilder s = new StringBuilder("# written by the KOALA scheduler for the agent of site " + name + "\n")
                .append("grid.sites = ").append(name).append('\n');
        Map<String, String> keys = new LinkedHashMap<>();
        if (slurm.isPresent()) {
            keys.put("manager", SLURM);
            keys.put("slurm.conf", slurm.get().conf().toString());
            keys.put("slurm.bin", slurm.get().binDir().toString());
        } else {
            keys.put("sge.root", cell.sgeRoot().toString());
            keys.put("sge.cell", cell.cell());
            keys.put("sge.qmasterPort", Integer.toString(cell.qmasterPort()));
            keys.put("sge.execdPort", Integer.toString(cell.execdPort()));
            keys.put("sge.bin", cell.binDir().toString());
        }
        keys.put("agent.user", agentUser);
        keys.put("agent.port", Integer.toString(agentPort));
        keys.put("node.nativeSpec", nodeNativeSpec);
        keys.put("node.count", Integer.toString(nodes));
        keys.put("node.cores", Integer.toString(nodeCores));
        keys.put("node.slots", Integer.toString(nodeSlots));
        if (slurm.isEmpty()) {
            keys.put("drmaa.jar", drmaa.jar().toString());
            keys.put("drmaa.library", drmaa.library().toString());
            keys.put("drmaa.preload", drmaa.preload().map(Path::toString).orElse(""));
        }
        keys.forEach((k, v) -> s.append(p).append(k).append(" = ").append(v.replace("\\", "\\\\")).append('\n'));
        return s.toString();
    }
}
