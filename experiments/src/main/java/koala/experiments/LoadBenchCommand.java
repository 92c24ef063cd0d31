package koala.experiments;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koala bench scheduler-load}: the scheduler's throughput, where its time goes, and its memory while many jobs pass. */
@Command(name = "scheduler-load", mixinStandardHelpOptions = true,
        description = {"Short one-node jobs pass through the scheduler as the daemon runs it (its API operations, its "
                + "loop with group commits, its books, a real store (--store), placement, claiming, the node desk, "
                + "accounting, metrics) on a made-up site of 200 nodes whose pilots start at once: no SGE, no HTTP, no "
                + "testbed. Every 1000 jobs: jobs in memory, heap after a full GC, mean round time, jobs/s. At the end: "
                + "jobs/s and where the time went (each phase of a job's life, and in it the store's commits and "
                + "statements), and the heap from 2000 jobs to the last; after passes on both stores, their "
                + "figures side by side. Target: 1,000 jobs/s or more on either store; memory and round time flat."})
final class LoadBenchCommand implements Callable<Integer> {
    @Option(names = "--jobs", defaultValue = "10000", description = "jobs to pass through, a multiple of 1000 "
            + "(default ${DEFAULT-VALUE})")
    int jobs;

    @Option(names = "--callers", defaultValue = "16", description = "threads making the calls at once, as the API's "
            + "threads do for many users and launchers (default ${DEFAULT-VALUE}; 1: one call at a time)")
    int callers;

    @Option(names = "--store", defaultValue = "h2", paramLabel = "h2|postgres|both", description = "the scheduler's "
            + "store. h2: an H2 file in a temporary directory, as a head node keeps it by default (its page cache kept "
            + "at 1 MB so that the heap is the scheduler's). postgres: PostgreSQL (the Debian package postgresql) on "
            + "a server the bench starts in a temporary directory with its defaults, reached over 127.0.0.1, and "
            + "stops and deletes at the end; its memory is out of the measured heap, its CPU out of the process's. "
            + "both: H2, then PostgreSQL in the same JVM (the second pass finds the JIT warm), then the two side by "
            + "side (default ${DEFAULT-VALUE})")
    String store;

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
        if (!store.matches("h2|postgres|both")) {
            System.err.println("koala: --store: h2, postgres or both");
            return 2;
        }
        LoadBench.run(jobs, callers, LoadBench.stores(store), System.out);
        return 0;
    }
}
