package koala.testbed;

import java.util.List;
import java.util.stream.Collectors;
import koala.common.grid.DrmaaInstall;

/** The grid configuration that describes the testbed's cells as KOALA sites. */
final class GridConfigFile {
    private GridConfigFile() {
    }

    static String render(List<SgeCell> cells, String agentUser) {
        StringBuilder s = new StringBuilder();
        s.append("# KOALA grid configuration, written by 'bin/koala testbed up'.\n")
                .append("# One site per SGE cell of the local testbed. See README.md, \"Configuration\".\n\n")
                .append("grid.sites = ").append(cells.stream().map(c -> c.plan().name()).collect(Collectors.joining(", ")))
                .append("\n");
        for (SgeCell cell : cells) {
            String p = "site." + cell.plan().name() + ".";
            s.append("\n# ").append(cell.plan().name()).append(": ").append(cell.plan().slots())
                    .append(" slots; one slot stands for one node on the testbed\n")
                    .append(p).append("sge.root = ").append(cell.environment().sgeRoot()).append('\n')
                    .append(p).append("sge.cell = ").append(cell.plan().name()).append('\n')
                    .append(p).append("sge.qmasterPort = ").append(cell.plan().qmasterPort()).append('\n')
                    .append(p).append("sge.execdPort = ").append(cell.plan().execdPort()).append('\n')
                    .append(p).append("sge.bin = ").append(cell.environment().binDir()).append('\n')
                    .append(p).append("agent.user = ").append(agentUser).append('\n')
                    .append(p).append("agent.port = 0\n")
                    .append("# DRMAA native specification for one node; a real site would ask for an exclusive host\n")
                    .append(p).append("node.nativeSpec = \n")
                    .append(p).append("node.count = ").append(cell.plan().slots()).append('\n')
                    .append(p).append("drmaa.jar = ").append(DrmaaInstall.DEBIAN_JAR).append('\n')
                    .append(p).append("drmaa.library = ").append(DrmaaInstall.DEBIAN_LIBRARY).append('\n')
                    .append(p).append("drmaa.preload = ").append(DrmaaInstall.DEBIAN_JEMALLOC).append('\n');
        }
        return s.append(FILE_CATALOG).toString();
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
