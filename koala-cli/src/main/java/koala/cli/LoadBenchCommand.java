package koala.cli;

import java.util.concurrent.Callable;
import koala.scheduler.LoadBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koala bench scheduler-load}: the scheduler's memory and round time while many jobs pass. */
@Command(name = "scheduler-load", mixinStandardHelpOptions = true,
        description = {"Short one-node jobs pass through the scheduler's own code (its books, a real H2 store, "
                + "placement, claiming, the node desk) on a made-up site of 200 nodes whose pilots start at once: no "
                + "SGE, no testbed. Every 1000 jobs: jobs in memory, heap after a full GC, mean round time; once as "
                + "the scheduler runs now (ended jobs leave memory after 10 min) and once keeping every job, in the "
                + "same run. Target: memory and round time flat. About 7 minutes for 10,000 jobs."})
final class LoadBenchCommand implements Callable<Integer> {
    @Option(names = "--jobs", defaultValue = "10000", description = "jobs to pass through (default ${DEFAULT-VALUE})")
    int jobs;

    @Override
    public Integer call() throws Exception {
        if (jobs < 1000) {
            System.err.println("koala: --jobs: at least 1000 (figures are printed every 1000 jobs)");
            return 2;
        }
        LoadBench.run(jobs, System.out);
        return 0;
    }
}
