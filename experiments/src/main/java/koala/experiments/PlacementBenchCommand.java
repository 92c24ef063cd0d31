package koala.experiments;

import java.util.concurrent.Callable;
import koala.bench.BenchSettings;
import koala.bench.PlacementBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koala bench placement}: JMH benchmark of the placement policies, no testbed needed. */
@Command(name = "placement", mixinStandardHelpOptions = true,
        description = {"Decisions per second of each placement policy (JMH, one thread, one fork per case) on a "
                + "synthetic grid of 10, 100 and 1000 sites of 500 nodes with 10,000 queued jobs of every type. "
                + "Then the same policies by resources: 100 sites of 50 hosts of mixed shapes (cores, memory, GPUs) "
                + "and jobs asking per node for cores, memory and GPUs, beside the same policy by nodes. "
                + "Targets: at least 20,000 Worst-Fit decisions/s on one core at 100 sites, and 50,000 by resources. "
                + "About 4 minutes."})
final class PlacementBenchCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "shorter warmup and measurement: under a minute, rougher figures")
    boolean quick;

    @Override
    public Integer call() throws Exception {
        PlacementBench.run(quick ? BenchSettings.QUICK : BenchSettings.FULL, System.out);
        return 0;
    }
}
