package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import koala.api.scheduler.StartEstimateView;
import koala.estimate.Estimate;
import koala.estimate.GridSnapshot;
import koala.estimate.RunHistory;
import koala.estimate.RuntimeGuess;
import koala.estimate.StartHistory;
import koala.estimate.StartEstimator;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * When the queued jobs will likely start: every {@link #EVERY} the loop hands over a snapshot of the grid
 * ({@link StartSnapshots}) and the estimates are made from it on a thread of their own, the whole queue at once
 * ({@link StartEstimator}); the latest are kept for {@code koala status}, {@code koala jobs} and the metrics. A
 * refresh still running when the next is due is not queued behind: the next snapshot waits for the one after.
 *
 * <p>What jobs ran ({@link #ran}) is the history the runtimes are guessed from (Tsafrir et al.: the mean of the
 * owner's last two runs of the same job name, capped at its wall time), kept in memory and, now and then, in the
 * store ({@link KeptHistory}), from which a scheduler started again takes it back ({@link #restore}).
 */
final class StartTimes implements AutoCloseable {
    /** How often the estimates are made again. */
    static final Duration EVERY = Duration.ofSeconds(5);
    /** What a job with neither history nor a wall-time limit is taken to run. */
    static final Duration SITE_DEFAULT = Duration.ofHours(1);
    private static final Logger LOG = LogManager.getLogger(StartTimes.class);

    /** One thread, gone when idle for 30 s: a scheduler made in a test and dropped leaves none behind. */
    private final ThreadPoolExecutor worker = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "start-times");
                t.setDaemon(true);
                return t;
            });

    StartTimes() {
        worker.allowCoreThreadTimeOut(true);
    }
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile Map<Long, Estimate> latest = Map.of();
    private volatile RunHistory history = RunHistory.empty();
    private volatile Duration lastCost = Duration.ZERO;
    /** When the grid the latest estimates start from was seen. */
    private volatile Instant madeAt;
    /** The grid the latest refresh started from: what a refused grow's likely time is read from. */
    private volatile GridSnapshot lastSnapshot;
    /** Per waiting job: when it was first estimated, and the start the likely replay said then. */
    private final Map<Long, Instant[]> said = new java.util.concurrent.ConcurrentHashMap<>();
    /** How right the estimates were: what calibrates the next ones ({@link StartHistory}). */
    private volatile StartHistory started = StartHistory.empty();
    private Instant next = Instant.EPOCH;

    /** Whether a refresh is due at {@code now} (on the loop); if so the next is due {@link #EVERY} later. */
    boolean due(Instant now) {
        if (now.isBefore(next) || busy.get()) {
            return false;
        }
        next = now.plus(EVERY);
        return true;
    }

    /** Makes the estimates from {@code snapshot} off the caller's thread; those made before stay until then. */
    void refresh(GridSnapshot snapshot) {
        if (!busy.compareAndSet(false, true)) {
            return;
        }
        lastSnapshot = snapshot;
        worker.execute(() -> {
            long t0 = System.nanoTime();
            try {
                Map<Long, Estimate> made = new HashMap<>();
                estimator().estimate(snapshot, started).forEach(e -> made.put(Long.parseLong(e.jobId()), e));
                made.forEach((id, e) -> {
                    if (e.replayed() != null) {
                        said.putIfAbsent(id, new Instant[] {snapshot.now(), e.replayed()});
                    }
                });
                latest = Map.copyOf(made);
                madeAt = snapshot.now();
            } catch (RuntimeException e) {
                LOG.warn("start estimates could not be made; the last ones stay", e);
            } finally {
                lastCost = Duration.ofNanos(System.nanoTime() - t0);
                busy.set(false);
            }
        });
    }

    /** The latest estimate of job {@code id}, if it was queued or claiming at the last refresh. */
    Optional<Estimate> of(long id) {
        return Optional.ofNullable(latest.get(id));
    }

    /** The latest estimate of job {@code id} as the API shows it. */
    Optional<StartEstimateView> viewOf(long id) {
        Instant at = madeAt;
        return of(id).map(e -> view(e, at));
    }

    /** An estimate as the API shows it, its reasons in words with times of day in the scheduler's zone. */
    static StartEstimateView view(Estimate e, Instant madeAt) {
        return new StartEstimateView(e.status().name(), e.likely(), e.low(), e.high(), e.sites(),
                e.describe(java.time.ZoneId.systemDefault()), madeAt);
    }

    /** Every latest estimate. */
    List<Estimate> all() {
        return List.copyOf(latest.values());
    }

    /** The latest estimates as the metrics show them at {@code now}: the likely waits from now, and those unforeseen. */
    koala.scheduler.metrics.StartFigures figures(Instant now) {
        List<Estimate> all = all();
        double[] waits = all.stream().filter(e -> e.likely() != null)
                .mapToDouble(e -> Math.max(0, Duration.between(now, e.likely()).toMillis() / 1000.0)).toArray();
        int unforeseen = (int) all.stream().filter(e -> e.status() == Estimate.Status.NOT_FORESEEN).count();
        int never = (int) all.stream().filter(e -> e.status() == Estimate.Status.NEVER_PLACEABLE).count();
        return new koala.scheduler.metrics.StartFigures(waits, unforeseen, never, lastCost.toMillis() / 1000.0);
    }

    /** How long the last refresh took, on its own thread. */
    Duration lastCost() {
        return lastCost;
    }

    /**
     * Job {@code id} left the queue at {@code at}: how right its first estimate was calibrates the next ones (the
     * wait its likely replay said against the wait it had, both from when it was first estimated).
     */
    void placed(long id, Instant at) {
        Instant[] first = said.remove(id);
        if (first != null && !at.isBefore(first[0])) {
            started = started.with(Duration.between(first[0], first[1]).abs(), Duration.between(first[0], at));
        }
    }

    /** A job that ended without starting (cancelled, given up) is no evidence of how right the estimates are. */
    void forget(long id) {
        said.remove(id);
    }

    /** The estimate of job {@code id} of {@code snapshot}, made on the caller's thread (a dry run's). */
    Estimate one(GridSnapshot snapshot, String id) {
        return estimator().estimate(snapshot, started).stream().filter(e -> e.jobId().equals(id)).findFirst().orElseThrow();
    }

    /** The history a scheduler before this one kept: taken while this one has none of its own yet. */
    void restore(RunHistory kept, StartHistory calibration) {
        if (history.runs().isEmpty() && history.ratios().isEmpty()) {
            history = kept;
        }
        if (started.ratios().stream().allMatch(java.util.List::isEmpty)) {
            started = calibration;
        }
    }

    /** {@code owner}'s job {@code name} ran {@code actual} (its wall-time limit, or null): history from now on. */
    void ran(String owner, String name, Duration actual, Duration wallTime) {
        RunHistory before = history;
        // exact: a prediction needs no spread, and the spread sorts every kept ratio
        history = before.with(owner, name, actual, RuntimeGuess.exact(before, SITE_DEFAULT).predict(owner, name, wallTime));
    }

    /**
     * From when a node of {@code perNode} will likely be idle on {@code site} (any site when null), for a grow the
     * grid is too full for now: the last refresh's grid with the running jobs ending as guessed, the grow ahead of
     * the queue (a grow does not queue: it takes what is idle when asked again); empty when not foreseen.
     */
    Optional<Instant> likelyIdle(koala.placement.Resources perNode, String site) {
        GridSnapshot s = lastSnapshot;
        if (s == null) {
            return Optional.empty();
        }
        koala.placement.JobNeed need = new koala.placement.JobNeed("grow", List.of(new koala.placement.ComponentNeed(0, 1,
                site, List.of(), perNode)), false);
        GridSnapshot alone = s.withQueue(List.of(new koala.estimate.QueuedJob("grow", null, "grow", need,
                koala.placement.PlacementPolicies.byName("worst-fit"), null))).withArrivals(koala.estimate.Arrivals.NONE);
        Estimate e = one(alone, "grow");
        return e.status() == Estimate.Status.WAITING ? Optional.ofNullable(e.likely()) : Optional.empty();
    }

    /** How right the estimates of the jobs placed so far were. */
    StartHistory startHistory() {
        return started;
    }

    /** What the runtimes are guessed from now. */
    RunHistory history() {
        return history;
    }

    private StartEstimator estimator() {
        return new StartEstimator(RuntimeGuess.of(history, SITE_DEFAULT), StartEstimator.DEFAULT_SAMPLES, 1);
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
