package koala.scheduler;

import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import koala.arbitration.ArbitrationSettings;
import koala.placement.FileLocations;
import koala.scheduler.accounting.AccountingFile;
import koala.scheduler.accounting.AccountingWriter;
import koala.scheduler.api.SchedulerApi;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.metrics.GridReading;
import koala.scheduler.metrics.SchedulerMetrics;
import koala.scheduler.storage.Store;

/**
 * A scheduler driven from inside the caller's process: the seam benchmarks and experiments drive the
 * scheduler through. It is the scheduler's own code as the daemon wires it — its loop thread (group
 * commits), books, the caller's store, placement, claiming, allocations, sharing, the node desk,
 * accounting and the metrics — on made-up sites the caller describes as the information service would
 * have heard them, whose pilots a {@link Cell} of the caller's starts. There are no site agents, no SGE
 * and no HTTP, and nothing runs on a timer: the caller makes the API's calls ({@link #api}, each run on the
 * loop as the daemon's HTTP API runs it), moves the clock it gave, and runs the scheduler's rounds
 * ({@link #round}) when it wants them.
 *
 * <pre>{@code
 * try (H2Store store = H2Store.inMemory();
 *      InProcessScheduler koala = InProcessScheduler.on(settings, store, clock)
 *              .site(seenFs0, 200).cell((node, owner) -> pilotIds.next()).start()) {
 *     JobView job = (JobView) koala.api().submit(alice, new SubmitRequest("x.jdf", jdf, null));
 *     koala.round(); // placed: its pilots submitted to the cell
 * }
 * }</pre>
 * The store stays the caller's to close, after this.
 */
public final class InProcessScheduler implements AutoCloseable {
    /** A made-up cell: starts a node's pilot as it is submitted and returns its job id there. */
    @FunctionalInterface
    public interface Cell {
        String start(NodeClaim node, String owner);
    }

    /** How the scheduler is set up before it {@link #start}s. */
    public static final class Builder {
        private final SchedulerSettings settings;
        private final Store store;
        private final InstantSource clock;
        private final Map<String, Integer> sizes = new LinkedHashMap<>();
        private final Map<String, SiteInfo> seen = new LinkedHashMap<>();
        private Cell cell = (node, owner) -> node.id();
        private boolean offLoop;
        private ArbitrationSettings sharing;
        private boolean accounting;

        private Builder(SchedulerSettings settings, Store store, InstantSource clock) {
            this.settings = settings;
            this.store = store;
            this.clock = clock;
        }

        /** A site of {@code nodes} nodes (its {@code node.count}), as the information service last heard it. */
        public Builder site(SiteInfo heard, int nodes) {
            sizes.put(heard.site(), nodes);
            seen.put(heard.site(), heard);
            return this;
        }

        /**
         * Pilots are started by {@code cell} as the daemon submits them: on a thread of their own once the
         * unit of work that asked for them is committed, the outcome back on the loop as an event.
         */
        public Builder cell(Cell cell) {
            this.cell = cell;
            this.offLoop = true;
            return this;
        }

        /** Pilots are started by {@code cell} on the loop thread as they are asked for, the outcome taken at once. */
        public Builder cellOnLoop(Cell cell) {
            this.cell = cell;
            this.offLoop = false;
            return this;
        }

        /** Framework instances share a full grid by {@code sharing} (first come, first served if not given). */
        public Builder sharing(ArbitrationSettings sharing) {
            this.sharing = sharing;
            return this;
        }

        /** Usage records go to the accounting file of the settings, by the daemon's writer. */
        public Builder accountingFile() {
            this.accounting = true;
            return this;
        }

        public InProcessScheduler start() {
            return new InProcessScheduler(this);
        }
    }

    private final SchedulerLoop loop;
    private final Submissions submissions;
    private final Scheduler scheduler;
    private final SchedulerMetrics metrics;
    private final SchedulerApi.Operations api;
    private final AccountingWriter accounting;
    private final InstantSource clock;
    /** Its own, so that a reading leaves the metrics' (taken at the end of each round) as it was. */
    private final GridReader reader = new GridReader();

    /** A scheduler with {@code settings} on {@code store}, whose time is {@code clock}'s. */
    public static Builder on(SchedulerSettings settings, Store store, InstantSource clock) {
        return new Builder(settings, store, clock);
    }

    private InProcessScheduler(Builder b) {
        this.clock = b.clock;
        this.loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(SchedulerDaemon.daemon("scheduler")),
                b.store);
        Pilots none = new Pilots((site, owner) -> null, Map.of(), site -> new Pilots.Launcher("java", List.of(),
                List.of(), List.of(), "http://koala-host:" + b.settings.port(), System.getProperty("java.io.tmpdir"), url -> url),
                b.settings.nodeGiveUp(), b.store.pilotTag(), Runnable::run, () -> { });
        Submissions.Submit submit = (node, owner, claim) -> b.cell.start(node, owner);
        this.submissions = b.offLoop ? Submissions.threaded(submit, loop::post, b.store::afterCommit)
                : Submissions.direct(submit);
        this.metrics = new SchedulerMetrics(b.sizes.keySet());
        Map<String, SiteInfo> seen = Map.copyOf(b.seen);
        this.scheduler = new Scheduler(b.settings, b.store, site -> Optional.ofNullable(seen.get(site)), b.sizes, none,
                submissions, FileLocations.NONE, b.clock, metrics);
        scheduler.checkDeclaredGpus();
        scheduler.onStart(() -> loop.post(() -> { }));
        SchedulerParts parts = scheduler.parts();
        if (b.sharing != null) {
            scheduler.share(b.sharing, site -> Map.of());
        }
        this.accounting = !b.accounting ? null : new AccountingWriter(new AccountingFile(b.settings.accounting()),
                Executors.newSingleThreadScheduledExecutor(SchedulerDaemon.daemon("accounting")),
                id -> loop.post(() -> parts.accounting().written(id)), Duration.ofSeconds(30));
        if (accounting != null) {
            parts.accounting().sink(accounting);
        }
        loop.call(() -> {
            parts.accounting().counts(metrics);
            return null;
        });
        this.api = new LoopOperations(parts, loop, null);
    }

    /** The API's operations, each run on the loop as the daemon's HTTP API runs it (rotating the token key aside). */
    public SchedulerApi.Operations api() {
        return api;
    }

    /** One round of the scheduler, on the loop: the pilots followed, claims and running jobs checked, the queue placed. */
    public void round() {
        loop.call(() -> {
            scheduler.tick();
            return null;
        });
    }

    /** Runs {@code work} on the loop thread, in a unit of work of the store, between the scheduler's own. */
    public <T> T onLoop(Callable<T> work) {
        return loop.call(work);
    }

    /** How many jobs and allocations the scheduler holds in memory now (ended ones leave after {@code keepEnded}). */
    public int jobsInMemory() {
        return loop.call(() -> scheduler.list().size());
    }

    /**
     * The grid as it stands now, read as the loop reads it at the end of every round into what the metrics
     * show — but by a reader of this object's own, so that the metrics' reading stays as the last round left it.
     */
    public GridReading read() {
        return loop.call(() -> scheduler.read(reader, clock.instant()));
    }

    /** What the scheduler counts and reads, as {@code GET /metrics} renders it. */
    public SchedulerMetrics metrics() {
        return metrics;
    }

    /** Stops the pilots' submissions, the accounting file's writer (its records written first) and the loop. */
    @Override
    public void close() {
        submissions.close();
        if (accounting != null) {
            accounting.close();
        }
        loop.close();
    }
}
