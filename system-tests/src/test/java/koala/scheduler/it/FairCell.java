package koala.scheduler.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.TransitionView;
import koala.fluent.client.FluentClient;
import koala.fluent.client.FluentJdf;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.runner.RunnerMain;
import org.awaitility.Awaitility;

/**
 * One cell, fs1 (8 nodes), shared by the grid's {@code fair} arbitration between framework instances:
 * the scheduler {@link SharingIT} and {@link YieldIT} run on. Instances homed on fs1 weigh 3 unless
 * their JDF says otherwise; the arbiter decides every 2 s, may take back any number of nodes in a round
 * and gives an instance asked to shrink {@code grace} to do so. Instances of the reference framework
 * are named {@code it-NAME-POLICY} and keep their files in one directory the nodes see.
 */
final class FairCell implements AutoCloseable {
    /** How long a master may take to answer, and a runner's launchers wait for a runner gone. */
    private static final Duration MASTER_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RUNNER_GONE = Duration.ofSeconds(10);

    private final TestScheduler scheduler;
    private final String name;
    private final Path dir;

    private FairCell(TestScheduler scheduler, String name, Path dir) {
        this.scheduler = scheduler;
        this.name = name;
        this.dir = dir;
    }

    /** A scheduler of fs1 alone under {@code fair}, giving an instance asked to shrink {@code grace}. */
    static FairCell start(String name, Duration grace) throws IOException {
        TestScheduler scheduler = TestScheduler.start(Map.of("grid.sites", "fs1",
                "scheduler.arbitration.policy", "fair",
                "scheduler.arbitration.maxTakeBack", "100",
                "scheduler.arbitration.grace", Long.toString(grace.toSeconds()),
                "scheduler.arbitration.round", "2",
                "site.fs1.provisioning.weight", "3"));
        return new FairCell(scheduler, name, TestScheduler.nodeDir("koala-" + name + "-it"));
    }

    /** The scheduler as the instances' owner calls it. */
    SchedulerClient client() {
        return scheduler.client();
    }

    /** The directory the instances' files are in, which the nodes see. */
    Path dir() {
        return dir;
    }

    /** A framework runner for {@code jdf}, its initial deployment done. */
    RunnerMain.Started runner(String jdf) {
        return scheduler.runner(jdf, scheduler.config(), dir, RUNNER_GONE);
    }

    /**
     * An instance of the reference framework wholly on fs1: {@code workers} workers of {@code slots} slots
     * at first, at most {@code fMax}, its master suspending a word count at most {@code suspend} times.
     */
    RunnerMain.Started fluent(String policy, int workers, int fMax, String settings, int slots, int suspend) {
        return runner(new FluentJdf("it-" + name + "-" + policy, policy, workers, fMax, settings, slots, "fs1", dir,
                null, List.of(), suspend).text());
    }

    /** A client of an instance's master, found through the scheduler. */
    FluentClient master(RunnerMain.Started instance) {
        return FluentClient.serving(client(), instance.instance(), instance::token, MASTER_TIMEOUT);
    }

    /** Waits (60 s at most) until {@code master} has {@code workers} workers and fs1 {@code idle} idle nodes. */
    void awaitWorkers(String what, FluentClient master, int workers, int idle) {
        Awaitility.await(what).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> master.status().workers().size() == workers && client().sites().stream()
                        .filter(s -> s.site().equals("fs1")).allMatch(s -> s.idle() == idle));
    }

    /**
     * Waits (15 s at most) until the scheduler sees {@code busy} of the instance's workers busy: once its
     * runner has reported them so (each second).
     */
    void awaitBusy(String what, RunnerMain.Started instance, int busy) {
        Awaitility.await(what).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> client().framework(instance.instance()).share().uses() == busy);
    }

    /** The instance's history at the scheduler: its grows, shrinks and what the arbiter did to it. */
    List<TransitionView> history(long instance) {
        return client().framework(instance).history();
    }

    /** An RL of {@code millis} at 20% of a core. */
    static AppRequest rl(long millis) {
        return new AppRequest("rl", millis, 20.0, 1_000L, null, null);
    }

    @Override
    public void close() {
        scheduler.close();
    }
}
