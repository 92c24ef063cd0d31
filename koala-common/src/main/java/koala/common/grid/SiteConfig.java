package koala.common.grid;

import java.nio.file.Path;

/**
 * One cluster of the grid as the configuration describes it.
 *
 * @param agentUser  the unprivileged account the site agent (and so every pilot job) runs as
 * @param agentPort  port of the site agent's HTTP API, 0 for any free port
 * @param nodeNativeSpec DRMAA native specification that asks SGE for one KOALA node
 * @param nodes      expected number of nodes, a hint for planning before the first snapshot
 * @param drmaa      where this site's DRMAA binding and native library are
 */
public record SiteConfig(String name, CellEnvironment cell, String agentUser, int agentPort,
                         String nodeNativeSpec, int nodes, DrmaaInstall drmaa) {
}
