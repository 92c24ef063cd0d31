package koala.experiments;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "dask", mixinStandardHelpOptions = true,
        description = {"Dask on KOALA three ways, on the testbed: a bursty train of dask.array computations (each "
                + "chunk burns half a second of CPU) run by an OnDemand instance with Dask's adapt, by a Proactive "
                + "one (KOALA's CPU rule sizes it) and by a static cluster of the peak size. Prints for each the time "
                + "until every computation is done, the mean time a computation takes from its arrival, and the "
                + "node-seconds held and busy; writes dask-summary.csv, "
                + "dask-workers.csv and dask-workers.png (workers over time) to --out. Goal: OnDemand's computations "
                + "within 1.2x the static cluster's time with at least 40%% fewer node-seconds. About 15 minutes. Runs "
                + "python/testbed/dask_experiment.py of the checkout."})
final class DaskExperiment implements Callable<Integer> {
    @Option(names = "--peak", defaultValue = "6", description = "the static cluster's workers, and F_max of the others "
            + "(default: ${DEFAULT-VALUE})")
    int peak;

    @Option(names = "--scale", defaultValue = "1", description = "a factor on the computations' arrival times "
            + "(default: ${DEFAULT-VALUE}: over 200 s)")
    double scale;

    @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (peak < 1 || !(scale > 0)) {
            throw new IllegalArgumentException("--peak must be at least 1 and --scale above 0");
        }
        return DaskOnTestbed.run("dask_experiment.py", grid -> Map.of("PEAK", Integer.toString(peak), "SCALE",
                Double.toString(scale), "OUT", out.toAbsolutePath().toString()));
    }
}
