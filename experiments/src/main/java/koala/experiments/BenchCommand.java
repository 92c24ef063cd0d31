package koala.experiments;

import java.time.InstantSource;
import java.util.concurrent.Callable;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks that print their figures.",
        subcommands = {BenchCommand.SgeLatency.class, PlacementBenchCommand.class, GrowBenchCommand.class,
                RunnerFailoverBenchCommand.class, FailoverBenchCommand.class, CliBenchCommand.class, LoadBenchCommand.class, MpiBenchCommand.class,
                MetricsBenchCommand.class, DaskBenchCommand.class, StartEstimateBenchCommand.class})
final class BenchCommand {

    @Command(name = "sge-latency", mixinStandardHelpOptions = true,
            description = {"Median submit-to-running and submit-to-finished latency of a trivial job through a site "
                    + "agent (DRMAA) and through plain 'qsub -sync y', alternating, in one run on the testbed. "
                    + "Target: the agent adds at most 10%% over plain qsub."})
    static final class SgeLatency implements Callable<Integer> {
        @Option(names = "--site", description = "site to measure on (default: the first)")
        String site;

        @Option(names = "--runs", defaultValue = "15", description = "measured runs of each (default: ${DEFAULT-VALUE})")
        int runs;

        @Option(names = "--warmup", defaultValue = "2", description = "runs of each left out (default: ${DEFAULT-VALUE})")
        int warmup;

        @Override
        public Integer call() {
            if (runs < 1 || warmup < 0) {
                throw new IllegalArgumentException("--runs must be at least 1 and --warmup at least 0");
            }
            SgeLatencyBenchmark.Result r = new SgeLatencyBenchmark(GridConfig.load(KoalaHome.gridConfig()), site,
                    KoalaHome.dir(), InstantSource.system(), System.out).run(runs, warmup);
            System.out.printf("%nsge-latency on %s, median of %d runs%n", r.site(), r.runs());
            System.out.printf("  %-22s %10s %10s %8s%n", "", "agent", "qsub -sync", "ratio");
            System.out.printf("  %-22s %8.0f ms %8.0f ms %7.2fx%n", "submit -> running", r.agentToRunning(),
                    r.qsubToRunning(), r.runningRatio());
            System.out.printf("  %-22s %8.0f ms %8.0f ms %7.2fx%n", "submit -> finished", r.agentToFinished(),
                    r.qsubToFinished(), r.finishedRatio());
            boolean met = r.runningRatio() <= 1.10 && r.finishedRatio() <= 1.10;
            System.out.println("  target (agent <= 1.10x qsub): " + (met ? "met" : "NOT met"));
            return 0;
        }
    }
}
