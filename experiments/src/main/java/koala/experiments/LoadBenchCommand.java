package koala.experiments;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koala bench scheduler-load}: the scheduler's throughput, where its time goes, and its memory while many jobs pass. */
@Command(name = "scheduler-load", mixinStandardHelpOptions = true,
        description = {"Short one-node jobs pass through the scheduler as the daemon runs it (its API operations, its "
                + "loop with group commits, its books, a real H2 file store, placement, claiming, the node desk, "
                + "accounting, metrics) on a made-up site of 200 nodes whose pilots start at once: no SGE, no HTTP, no "
                + "testbed. Every 1000 jobs: jobs in memory, heap after a full GC, mean round time, jobs/s. At the end: "
                + "jobs/s and where the time went (each phase of a job's life, and in it H2's commits and statements), "
                + "and the heap from 2000 jobs to the last. Target: 1,000 jobs/s or more; memory and round time flat."})
final class LoadBenchCommand implements Callable<Integer> {
    @Option(names = "--jobs", defaultValue = "10000", description = "jobs to pass through, a multiple of 1000 "
            + "(default ${DEFAULT-VALUE})")
    int jobs;

    @Option(names = "--callers", defaultValue = "16", description = "threads making the calls at once, as the API's "
            + "threads do for many users and launchers (default ${DEFAULT-VALUE}; 1: one call at a time)")
    int callers;

    @Override
    public Integer call() throws Exception {
        if (jobs < 1000 || jobs % 1000 != 0) {
            System.err.println("koala: --jobs: a multiple of 1000, at least 1000 (figures are printed every 1000 jobs)");
            return 2;
        }
        if (callers < 1) {
            System.err.println("koala: --callers: at least 1");
            return 2;
        }
        LoadBench.run(jobs, callers, System.out);
        return 0;
    }
}
