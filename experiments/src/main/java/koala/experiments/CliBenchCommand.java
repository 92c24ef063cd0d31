package koala.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.Callable;
import koala.api.scheduler.SchedulerClient;
import koala.cli.TestbedCommand;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.scheduler.SchedulerDaemon;
import koala.testbed.Testbed;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "cli", mixinStandardHelpOptions = true,
        description = {"The command line's own cost: the median time of one 'bin/koala submit one.jdf' (a one-node "
                + "job running /bin/true) against one plain 'qsub' of /bin/true on a local site, alternating in one "
                + "run, both as the site's job account through the same runuser; then one call submitting as many "
                + "files as there were runs. Brings the testbed up if needed, and uses the running scheduler or starts "
                + "one. Prints where a submit's time goes, stage by stage (KOALA_TIMING). Target: bin/koala submit within 2.5x "
                + "plain qsub."})
final class CliBenchCommand implements Callable<Integer> {
    /** bin/koala submit against plain qsub, at most (issue 33; it was 3x). */
    static final double TARGET = 2.5;

    @Option(names = "--site", description = "local site whose qsub to compare with (default: the first local one)")
    String site;

    @Option(names = "--runs", defaultValue = "15", description = "measured calls of each (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--warmup", defaultValue = "2", description = "calls of each left out (default: ${DEFAULT-VALUE})")
    int warmup;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || warmup < 0) {
            throw new IllegalArgumentException("--runs must be at least 1 and --warmup at least 0");
        }
        Path launcher = launcher();
        Testbed testbed = TestbedCommand.testbed(System.out);
        testbed.up(testbed.keepingStandbyHost(TestbedCommand.defaultPlan()));
        GridConfig grid = GridConfig.load(testbed.gridConfig());
        SchedulerClient client = new SchedulerClient(grid.schedulerAddress());
        SchedulerDaemon own = GrowBenchCommand.reachable(client) ? null : SchedulerDaemon.start(grid, KoalaHome.dir());
        try {
            CliLatencyBenchmark.Result r = new CliLatencyBenchmark(grid, site, launcher, InstantSource.system(),
                    System.out).run(runs, warmup);
            System.out.printf("%ncli benchmark on %s, median of %d calls of each%n", r.site(), r.runs());
            System.out.printf("  bin/koala submit one.jdf             %8.0f ms%n", r.submit());
            System.out.printf("  plain qsub -b y /bin/true            %8.0f ms%n", r.qsub());
            System.out.printf("  ratio                                %8.2fx  target <= %.2fx: %s%n", r.ratio(), TARGET,
                    r.ratio() <= TARGET ? "met" : "NOT met");
            System.out.printf("  one bin/koala submit of %d files     %8.0f ms, %.0f ms a job%n", r.batch(), r.batchCall(),
                    r.batchPerJob());
            if (!r.stages().isEmpty()) {
                System.out.printf("  bin/koala submit by stage (each stage's own median; the calls' lines give them in "
                        + "this order)%n");
                r.stages().forEach((stage, ms) -> System.out.printf("    %-46s %6.0f ms%n", stage.what, ms));
            }
            return 0;
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    /** The launcher to time: the one that started this command. */
    private static Path launcher() {
        String env = System.getenv("KOALA_LAUNCHER");
        if (env == null || env.isBlank() || !Files.isExecutable(Path.of(env))) {
            throw new IllegalArgumentException("run this through bin/koala: it times the launcher (KOALA_LAUNCHER)");
        }
        return Path.of(env);
    }
}
