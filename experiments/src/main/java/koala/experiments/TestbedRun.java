package koala.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import koala.api.scheduler.SchedulerClient;
import koala.cli.FluentCommands;
import koala.cli.RunnerLaunch;
import koala.common.time.Poll;
import koala.fluent.Application;
import koala.fluent.FluentJob;
import koala.fluent.client.FluentClient;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.FluentMessages.MetricsSample;
import koala.http.ApiException;
import koala.provisioning.PolicyKind;
import koala.sim.Workload;

/**
 * One policy on the testbed: deploys an instance of the reference framework, waits for its
 * initial workers, submits each job of the workload at its offset, lets the run go on to the
 * workload's end, reads the master's metrics and the runner's and master's logs, and ends the
 * instance. The window measured runs from the master's sample just before the first job to its
 * first sample at or after the workload's end, so that its busy and idle counters cover it exactly.
 */
final class TestbedRun {
    private static final Duration DEPLOY = Duration.ofMinutes(3);
    private static final Duration PROGRESS = Duration.ofSeconds(20);

    /**
     * A finished run: its figures, each worker's grow time (request to joined), seconds, and the
     * applications that failed (on a worker that was lost or taken back) beside those rejected.
     */
    record Result(TestbedFigures figures, List<Double> growTimes, long instance, long failed, Path runnerLog,
                  List<Submitted> submitted, List<AppReply> apps) {
    }

    /**
     * A job the master took: its id there, how many applications, when it arrived (its offset in the
     * workload from the run's start) and how long the master took to answer, seconds.
     */
    record Submitted(String job, int apps, Instant arrived, double seconds) {
    }

    /**
     * How the instance is deployed: slots per worker (its DeviceManagers' components), how often its
     * master may suspend one word count (0: never), the file its word counts read (null: the workload
     * has none), and how long to wait after the window for word counts still running to end.
     */
    record Deployment(int slots, int suspend, Path words, Duration drain) {
        static final Deployment RL_ONLY = new Deployment(1, 0, null, Duration.ZERO);
    }

    private final SchedulerClient client;
    private final Path gridFile;
    private final TestbedSetup setup;
    private final InstantSource clock;
    private final PrintStream out;

    TestbedRun(SchedulerClient client, Path gridFile, TestbedSetup setup, InstantSource clock, PrintStream out) {
        this.client = client;
        this.gridFile = gridFile;
        this.setup = setup;
        this.clock = clock;
        this.out = out;
    }

    Result run(PolicyKind policy, Workload workload) throws IOException {
        return run("testbed-" + policy.shortName(), policy, setup.initialWorkers(policy), setup.fMax(policy),
                setup.jdfAttributes(policy, Runtime.getRuntime().availableProcessors()), workload);
    }

    /** An instance named {@code name} with these settings (JDF attributes besides policy, workers and F_max). */
    Result run(String name, PolicyKind policy, int initial, int fMax, String attributes, Workload workload)
            throws IOException {
        return run(name, policy, initial, fMax, attributes, workload, Deployment.RL_ONLY);
    }

    /** As {@link #run(String, PolicyKind, int, int, String, Workload)}, deployed as {@code how} says. */
    Result run(String name, PolicyKind policy, int initial, int fMax, String attributes, Workload workload,
               Deployment how) throws IOException {
        Path jdf = FluentCommands.writeJdf(name, policy.shortName(), initial, fMax, attributes, how.slots(), null,
                how.suspend());
        RunnerLaunch.Launched launched = RunnerLaunch.start(jdf, gridFile, client);
        long id = launched.instance();
        try {
            String state = RunnerLaunch.follow(launched, DEPLOY, true);
            if (!state.equals("RUNNING")) {
                throw new IllegalStateException(policy + " instance " + id + " is " + state + "; see " + launched.log());
            }
            FluentClient fluent = FluentClient.serving(client, id, launched::token, Duration.ofSeconds(60));
            if (!new Poll(clock, Duration.ofSeconds(1)).until(() -> joined(fluent) >= initial, DEPLOY)) {
                throw new IllegalStateException(policy + " instance " + id + ": its " + initial + " initial workers did "
                        + "not all join the master within " + DEPLOY.toMinutes() + " min; see " + launched.log());
            }
            out.printf("  %s: instance %d deployed (%d initial workers joined), JDF %s, runner log %s%n", policy, id,
                    initial, jdf, launched.log());
            return measure(policy, workload, fluent, launched, how);
        } finally {
            try {
                client.closeAllocation(id);
                launched.awaitExit(Duration.ofSeconds(15));
            } catch (ApiException e) {
                out.println("  could not end instance " + id + ": " + e.getMessage());
            }
        }
    }

    /** Workers joined so far; none while the master, just started by its launcher, does not serve yet. */
    private static int joined(FluentClient fluent) {
        try {
            return fluent.status().workers().size();
        } catch (ApiException e) {
            return -1;
        }
    }

    private Result measure(PolicyKind policy, Workload workload, FluentClient fluent, RunnerLaunch.Launched launched,
                           Deployment how) throws IOException {
        MetricsReport before = latestSample(fluent, clock.instant().minus(Duration.ofDays(1)));
        Instant from = sampleTime(before);
        Instant start = clock.instant();
        ConcurrentLinkedQueue<Submitted> submitted = new ConcurrentLinkedQueue<>();
        AtomicInteger sent = new AtomicInteger();
        // jobs go to the master one at a time, in arrival order: the master serves them first come,
        // first served anyway, and each POST /jobs it holds (until the job's grow is done) takes one
        // of its few HTTP threads, which the new workers' hellos then lack
        ScheduledExecutorService arrivals = Executors.newSingleThreadScheduledExecutor();
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            for (FluentJob job : workload.jobs()) {
                Duration offset = Duration.between(Workload.START, job.submittedAt());
                arrivals.schedule(() -> sender.execute(() -> submit(fluent, job, start.plus(offset), submitted, sent,
                                how.words())),
                        offset.toMillis(), TimeUnit.MILLISECONDS);
            }
            watch(fluent, start, workload, sent);
        } finally {
            arrivals.shutdownNow();
            sender.shutdownNow();
        }
        MetricsReport after = latestSample(fluent, start.plus(workload.length()));
        Instant to = sampleTime(after);
        drain(fluent, submitted, how.drain());
        List<AppReply> apps = new ArrayList<>();
        for (Submitted s : submitted) {
            apps.addAll(fluent.job(s.job()).apps());
        }
        MetricsSample last = after.samples().get(after.samples().size() - 1);
        TestbedLogs.Parsed logs = TestbedLogs.parse(Files.readAllLines(launched.log()), masterEvents(launched.instance()));
        List<Double> growTimes = logs.growTimes(from, to);
        double wait = submitted.stream().mapToDouble(s -> s.seconds() * s.apps()).sum();
        TestbedFigures figures = new TestbedFigures(policy.shortName(), apps.size(), last.rejected(),
                TestbedFigures.busyIdleBetween(before.workerSeconds(), after.workerSeconds()),
                TestbedFigures.cpuPercentSeconds(apps), logs.allocatedSeconds(from, to),
                growTimes.stream().mapToDouble(Double::doubleValue).sum(), logs.growsIn(from, to).size(), wait,
                TestbedFigures.series(after.samples(), from, to));
        long failed = apps.stream().filter(a -> a.state().equals("FAILED")).count();
        return new Result(figures, growTimes, launched.instance(), failed, launched.log(), List.copyOf(submitted),
                List.copyOf(apps));
    }

    /**
     * Waits, up to {@code limit}, until no application of the run is still running or queued: word
     * counts that arrived late end after the window, and their completion is part of what is measured.
     */
    private void drain(FluentClient fluent, ConcurrentLinkedQueue<Submitted> submitted, Duration limit) {
        if (limit.isZero()) {
            return;
        }
        boolean done = new Poll(clock, Duration.ofSeconds(2)).until(() -> submitted.stream()
                .flatMap(s -> fluent.job(s.job()).apps().stream())
                .noneMatch(a -> a.state().equals("RUNNING") || a.state().equals("QUEUED")), limit);
        if (!done) {
            out.println("  some applications still ran " + limit.toSeconds() + " s after the window: counted as unfinished");
        }
    }

    /** Submits {@code job}, which arrived at {@code arrived}: its wait runs from then to the master's answer. */
    private void submit(FluentClient fluent, FluentJob job, Instant arrived, ConcurrentLinkedQueue<Submitted> submitted,
                        AtomicInteger sent, Path words) {
        List<AppRequest> apps = job.apps().stream().map(a -> request(a, words)).toList();
        try {
            JobReply reply = fluent.submit(new JobRequest(job.id(), apps));
            submitted.add(new Submitted(reply.job(), apps.size(), arrived,
                    Duration.between(arrived, clock.instant()).toMillis() / 1000.0));
        } catch (ApiException e) {
            out.println("  job " + job.id() + " refused by the master: " + e.getMessage());
        }
        sent.incrementAndGet();
    }

    /** An RL as the master takes it: its mean CPU load (the real filter varies it around that mean each period). */
    static AppRequest request(Application app) {
        return request(app, null);
    }

    /**
     * An application as the master takes it: an RL with its mean CPU load (the real filter varies it
     * around that mean each period); an SWC with its 2^n mappers counting {@code words} over its duration.
     */
    static AppRequest request(Application app, Path words) {
        if (app.isRl()) {
            return new AppRequest("rl", app.duration().toMillis(), app.cpuPercent(), app.loadPeriod().toMillis(), null,
                    null);
        }
        if (words == null) {
            throw new IllegalArgumentException(app.id() + " is a word count, and the run has no file for it to count");
        }
        int n = Integer.numberOfTrailingZeros(app.components() - 2);
        return new AppRequest("swc", app.duration().toMillis(), null, null, n, words.toString());
    }

    /** A line every {@link #PROGRESS} until the workload's end. */
    private void watch(FluentClient fluent, Instant start, Workload workload, AtomicInteger sent) {
        Instant end = start.plus(workload.length());
        Instant[] next = {start};
        new Poll(clock, Duration.ofSeconds(1)).until(() -> {
            Instant now = clock.instant();
            if (!now.isBefore(next[0])) {
                next[0] = next[0].plus(PROGRESS);
                progress(fluent, Duration.between(start, now), sent.get(), workload.jobs().size());
            }
            return !now.isBefore(end);
        }, workload.length().plus(Duration.ofMinutes(1)));
    }

    private void progress(FluentClient fluent, Duration at, int sent, int jobs) {
        try {
            MasterStatus s = fluent.status();
            long busy = s.workers().stream().filter(w -> !w.running().isEmpty()).count();
            out.printf(Locale.ROOT, "    +%4ds  batch %d/%d submitted  workers %2d (%2d busy)  accepted %d  rejected %d"
                            + "  finished %d%n", at.toSeconds(), sent, jobs, s.workers().size(), busy,
                    s.counters().getOrDefault("accepted", 0), s.counters().getOrDefault("rejected", 0),
                    s.counters().getOrDefault("finished", 0));
        } catch (ApiException e) {
            out.println("    +" + at.toSeconds() + "s  master status unavailable: " + e.getMessage());
        }
    }

    /** The master's metrics once it has a sample at or after {@code notBefore}. */
    private MetricsReport latestSample(FluentClient fluent, Instant notBefore) {
        MetricsReport[] report = {null};
        Duration limit = setup.samplePeriod().multipliedBy(5).plusSeconds(10);
        if (!new Poll(clock, Duration.ofMillis(250)).until(() -> {
            report[0] = fluent.metrics();
            return !report[0].samples().isEmpty() && !sampleTime(report[0]).isBefore(notBefore);
        }, limit)) {
            throw new IllegalStateException("the master took no metrics sample within " + limit.toSeconds() + " s");
        }
        return report[0];
    }

    private static Instant sampleTime(MetricsReport report) {
        return report.samples().get(report.samples().size() - 1).at();
    }

    static List<String> masterEvents(long instance) throws IOException {
        Path file = FluentCommands.dir().resolve("instance-" + instance).resolve("events.log");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }
}
