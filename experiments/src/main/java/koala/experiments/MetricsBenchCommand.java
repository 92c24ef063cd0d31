package koala.experiments;

import java.util.concurrent.Callable;
import koala.bench.BenchSettings;
import koala.bench.ScrapeBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koala bench metrics}: JMH benchmark of one scrape of the scheduler's {@code GET /metrics}, no testbed needed. */
@Command(name = "metrics", mixinStandardHelpOptions = true,
        description = {"Time of one scrape of the scheduler's GET /metrics, rendered without the network (JMH, one "
                + "thread, one fork per case), in OpenMetrics and in Prometheus text, from the scheduler's own code "
                + "holding 1,000 jobs, 100 framework instances of 5 workers and 20 sites; and the time its loop spends "
                + "each round reading the grid for the scrapes. Target: one scrape <= 50 ms. About two minutes."})
final class MetricsBenchCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "shorter warmup and measurement: about a minute, rougher figures")
    boolean quick;

    @Override
    public Integer call() throws Exception {
        ScrapeBench.run(quick ? BenchSettings.QUICK : BenchSettings.FULL, System.out);
        return 0;
    }
}
