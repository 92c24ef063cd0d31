package koala.experiments;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import koala.grid.SiteConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "dask", mixinStandardHelpOptions = true,
        description = {"Dask's worker start on the testbed: the median time from Dask asking for N workers to N "
                + "workers connected to its scheduler, through KOALA (KoalaCluster.scale(N) on an OnDemand instance "
                + "held to one cell) and by plain qsub of the same dask-worker command on that cell (the way "
                + "dask-jobqueue's SGECluster starts workers), alternating in one run, to one Dask scheduler. "
                + "Target: KOALA within 1.3x plain qsub for N = 1, 4 and 8. Runs python/testbed/dask_bench.py "
                + "of the checkout with Debian's Dask."})
final class DaskBenchCommand implements Callable<Integer> {
    @Option(names = "--runs", defaultValue = "5", description = "measured runs of each (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--warmup", defaultValue = "1", description = "runs of each left out (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--sizes", split = ",", defaultValue = "1,4,8", description = "worker counts N "
            + "(default: ${DEFAULT-VALUE})")
    List<Integer> sizes;

    @Option(names = "--site", description = "the cell (default: the first)")
    String site;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || warmup < 0 || sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("--runs must be at least 1, --warmup at least 0, every size at least 1");
        }
        int largest = sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
        return DaskOnTestbed.run("dask_bench.py", grid -> {
            SiteConfig cell = site == null ? grid.sites().stream().filter(s -> !s.remote()).findFirst().orElseThrow()
                    : grid.site(site);
            if (largest + 2 > cell.nodes()) {
                throw new IllegalArgumentException(cell.name() + " has " + cell.nodes() + " nodes: the Dask scheduler, "
                        + "an orchestrator and " + largest + " workers do not fit");
            }
            return Map.of("SITE", cell.name(), "SGE_ENV", DaskOnTestbed.sgeEnvironment(cell), "RUNS",
                    Integer.toString(runs), "WARMUP", Integer.toString(warmup), "SIZES",
                    sizes.stream().map(String::valueOf).collect(Collectors.joining(",")));
        });
    }
}
