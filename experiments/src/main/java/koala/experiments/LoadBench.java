package koala.experiments;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.SubmitRequest;
import koala.api.site.AgentHealth;
import koala.api.site.CellSnapshot;
import koala.api.site.QueueInstance;
import koala.scheduler.InProcessScheduler;
import koala.scheduler.api.Caller;
import koala.scheduler.api.SchedulerApi;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.storage.SqlStore;

/**
 * {@code bench scheduler-load}: many short jobs pass through the scheduler as the daemon runs it —
 * its API operations, its loop (one thread, group commits), its books, a real store (an H2 file, or
 * PostgreSQL on a server of its own: {@link LoadBenchStore}; a pass on each, one after the other),
 * placement, claiming, the node desk, accounting with its writer and the metrics — on a made-up
 * site of 200 idle nodes whose pilots start at once (no SGE, no HTTP: what is measured is the
 * scheduler, not the cells or the sockets), driven through {@link InProcessScheduler}. {@code callers} threads make the calls at once, as the
 * API's threads do for many users and launchers.
 *
 * <p>Each batch of a hundred jobs: the jobs are submitted (with request ids, as the CLI does); a
 * round places them and their pilots are submitted (on the submission thread, the outcome back as
 * an event); their launchers arrive; a round sees them all claimed; each launcher asks for its
 * task and reports its exit; a round ends the jobs; a minute of scheduler time passes. Every
 * thousand jobs it prints the jobs in memory, the heap after a full collection, the mean time of a
 * round and the jobs per second since the last line (the measuring is not timed); at the end, the
 * jobs per second and where the time went: each phase's wall time, and in it the store's commits
 * and statements (the rest is the scheduler's own code, its logging, and the hand-offs between the
 * callers and the loop). After passes on more than one store, their figures side by side.
 */
public final class LoadBench {
    private static final String JDF = "&(count = 1)(executable = /bin/true)";
    private static final int BATCH = 100;
    private static final Caller ALICE = new Caller("alice", 1000, false, "bench");

    /** A clock the bench moves: a minute of scheduler time per hundred jobs. */
    private static final class Clock implements InstantSource {
        private volatile Instant now = Instant.parse("2026-11-25T00:00:00Z");

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    /** One line of the table: after {@code passed} jobs. */
    public record Row(int passed, int inMemory, double heapMb, double roundMs, double jobsPerSecond) {
    }

    /** The parts of a batch, in order. */
    public enum Phase {
        SUBMIT("submit"), PLACE("round: place, pilots"), ARRIVE("arrive"), CLAIMED("round: all claimed"),
        RUN("task + exited"), END("round: end");

        final String label;

        Phase(String label) {
            this.label = label;
        }
    }

    /** What a phase cost over the whole run: its wall time, the loop thread's CPU time, and the store's work in it. */
    public record Cost(long nanos, long loopCpuNanos, SqlStore.Stats store) {
        Cost plus(long moreNanos, long moreCpuNanos, SqlStore.Stats moreStore) {
            return new Cost(nanos + moreNanos, loopCpuNanos + moreCpuNanos, new SqlStore.Stats(store.units() + moreStore.units(),
                    store.commitNanos() + moreStore.commitNanos(), store.statements() + moreStore.statements(),
                    store.statementNanos() + moreStore.statementNanos()));
        }
    }

    /** A pass's figures, on {@code store}. */
    public record Figures(LoadBenchStore.Kind store, int jobs, int callers, List<Row> rows, Map<Phase, Cost> costs,
                          long processCpuNanos) {
        public long nanos() {
            return costs.values().stream().mapToLong(Cost::nanos).sum();
        }

        /** Every phase's cost added up. */
        public Cost total() {
            return costs.values().stream().reduce(new Cost(0, 0, new SqlStore.Stats(0, 0, 0, 0)),
                    (a, b) -> a.plus(b.nanos(), b.loopCpuNanos(), b.store()));
        }

        public double jobsPerSecond() {
            return jobs / (nanos() / 1e9);
        }

        /** The heap at the second line (2000 jobs: the first keepEnded window has filled) and at the last. */
        public double heapRatio() {
            return last().heapMb() / first().heapMb();
        }

        /** The line the heap is measured from: the second (2000 jobs), or the only one. */
        Row first() {
            return rows.get(Math.min(1, rows.size() - 1));
        }

        Row last() {
            return rows.get(rows.size() - 1);
        }
    }

    private LoadBench() {
    }

    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int callers = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        List<LoadBenchStore.Kind> stores = args.length > 2 ? stores(args[2]) : List.of(LoadBenchStore.Kind.H2);
        run(jobs, callers, stores, System.out);
    }

    /** The stores {@code --store} names: h2, postgres, or both (H2 first). */
    static List<LoadBenchStore.Kind> stores(String option) {
        return option.equals("both") ? List.of(LoadBenchStore.Kind.H2, LoadBenchStore.Kind.POSTGRES)
                : List.of(LoadBenchStore.Kind.of(option));
    }

    /** Passes {@code jobs} jobs (a multiple of 1000) through the scheduler on H2 and prints the figures. */
    public static Figures run(int jobs, int callers, PrintStream out) throws Exception {
        return run(jobs, callers, List.of(LoadBenchStore.Kind.H2), out).get(0);
    }

    /**
     * Passes {@code jobs} jobs through the scheduler on each of {@code stores} in turn, in this JVM (a later
     * pass finds the JIT warm), and prints each pass's figures; after more than one, them side by side.
     */
    static List<Figures> run(int jobs, int callers, List<LoadBenchStore.Kind> stores, PrintStream out)
            throws Exception {
        stores.forEach(LoadBenchStore.Kind::requireInstalled); // before a pass on another store has taken minutes
        out.printf("%d jobs of one node each, %d at a time, %d callers, a minute of scheduler time per batch; ended "
                + "jobs leave memory after 10 min%n", jobs, BATCH, callers);
        List<Figures> all = new ArrayList<>();
        for (LoadBenchStore.Kind store : stores) {
            Figures figures = pass(jobs, callers, store, out);
            print(figures, out);
            all.add(figures);
        }
        if (all.size() > 1) {
            sideBySide(all, out);
        }
        return all;
    }

    private static Figures pass(int jobs, int callers, LoadBenchStore.Kind kind, PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("koala-load-bench-");
        Clock clock = new Clock();
        SchedulerSettings settings = new SchedulerSettings(7400, Duration.ofSeconds(1), 150, Duration.ofMinutes(5), 3,
                "worst-fit", Duration.ofSeconds(1), Duration.ofMinutes(5), dir.resolve("koala"), 1_000_000,
                Duration.ofMinutes(10), Duration.ofMinutes(10).plusDays(1), dir.resolve("accounting.jsonl"));
        AtomicLong pilotIds = new AtomicLong();
        java.util.Queue<NodeClaim> started = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Semaphore starts = new Semaphore(0);
        List<Row> rows = new ArrayList<>();
        Map<Phase, Cost> costs = new EnumMap<>(Phase.class);
        for (Phase p : Phase.values()) {
            costs.put(p, new Cost(0, 0, new SqlStore.Stats(0, 0, 0, 0)));
        }
        ExecutorService callerThreads = Executors.newFixedThreadPool(callers, work -> {
            Thread t = new Thread(work, "caller");
            t.setDaemon(true);
            return t;
        });
        long[] processCpu = {0};
        try (LoadBenchStore opened = kind.open(settings.database())) {
            SqlStore store = opened.store();
            out.printf("%n%s%n", opened.describe());
            // SGE as the bench has it: a pilot starts as it is submitted, its launcher given its node's token
            int owed;
            try (InProcessScheduler scheduler = InProcessScheduler.on(settings, store, clock).site(idleSite("fs0"), 200)
                    .cell((node, owner) -> {
                        started.add(node);
                        starts.release();
                        return Long.toString(pilotIds.incrementAndGet());
                    }).accountingFile().start()) {
                long loopThread = scheduler.onLoop(() -> Thread.currentThread().getId());
                Batch batch = new Batch(scheduler.api(), scheduler, loopThread, store, clock, started, starts, callerThreads,
                        costs, processCpu);
                long sinceNanos = 0;
                for (int passed = 0; passed < jobs; passed += BATCH) {
                    batch.run(passed);
                    if ((passed + BATCH) % 1000 == 0) {
                        long nanos = costs.values().stream().mapToLong(Cost::nanos).sum();
                        Row row = measure(scheduler, passed + BATCH, 1000 / ((nanos - sinceNanos) / 1e9));
                        sinceNanos = nanos;
                        rows.add(row);
                        out.printf("  %6d jobs: %5d in memory, heap %6.1f MB, round %.2f ms, %5.0f jobs/s%n", row.passed(),
                                row.inMemory(), row.heapMb(), row.roundMs(), row.jobsPerSecond());
                    }
                }
                owed = awaitAccounting(scheduler, store);
            } // the pilots' submissions, the accounting file's writer and the loop stopped
            out.printf("the database: %.1f MB on disk; usage records the accounting file has not acknowledged: %d%n",
                    opened.megabytes(), owed);
        } finally {
            callerThreads.shutdownNow();
            deleteAll(dir);
        }
        return new Figures(kind, jobs, callers, rows, costs, processCpu[0]);
    }

    /** Waits, up to 30 s, until the accounting file has acknowledged every usage record; returns how many it has not. */
    private static int awaitAccounting(InProcessScheduler scheduler, SqlStore store) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        int owed = scheduler.onLoop(() -> store.unwrittenUsageRecords().size());
        while (owed > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            owed = scheduler.onLoop(() -> store.unwrittenUsageRecords().size());
        }
        return owed;
    }

    static void deleteAll(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A hundred jobs through their lives, each phase timed. */
    private record Batch(SchedulerApi.Operations api, InProcessScheduler scheduler, long loopThread, SqlStore store,
                         Clock clock, java.util.Queue<NodeClaim> started, Semaphore starts, ExecutorService callers,
                         Map<Phase, Cost> costs, long[] processCpu) {
        void run(int passed) throws Exception {
            timed(Phase.SUBMIT, () -> all(java.util.stream.IntStream.range(0, BATCH).mapToObj(i -> (Callable<Object>) () ->
                    ((JobView) api.submit(ALICE, new SubmitRequest("bench.jdf", JDF, "bench-" + (passed + i)))).id())
                    .toList()));
            clock.advance(Duration.ofSeconds(2));
            timed(Phase.PLACE, () -> {
                round();
                starts.acquire(BATCH); // every pilot submitted, its launcher on its way
            });
            List<NodeClaim> nodes = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                nodes.add(started.poll());
            }
            timed(Phase.ARRIVE, () -> all(nodes.stream().map(n -> (Callable<Object>) () ->
                    api.arrive(n.id(), new NodeReport(n.token(), "fs0-n1", null))).toList()));
            timed(Phase.CLAIMED, this::round);
            timed(Phase.RUN, () -> all(nodes.stream().map(n -> (Callable<Object>) () -> {
                api.task(n.id(), n.token());
                return api.exited(n.id(), new NodeReport(n.token(), "fs0-n1", 0));
            }).toList()));
            clock.advance(Duration.ofSeconds(58));
            timed(Phase.END, this::round);
        }

        void round() {
            scheduler.round();
        }

        /** The calls made by the callers at once; returns when every one is answered. */
        void all(List<Callable<Object>> calls) throws Exception {
            for (Future<Object> f : callers.invokeAll(calls)) {
                f.get();
            }
        }

        interface Step {
            void run() throws Exception;
        }

        void timed(Phase phase, Step step) throws Exception {
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            SqlStore.Stats before = store.stats();
            long cpu = threads.getThreadCpuTime(loopThread);
            long allCpu = processCpuNow();
            long start = System.nanoTime();
            step.run();
            long took = System.nanoTime() - start;
            processCpu[0] += processCpuNow() - allCpu;
            costs.put(phase, costs.get(phase).plus(took, threads.getThreadCpuTime(loopThread) - cpu,
                    store.stats().minus(before)));
        }
    }

    /** The CPU time of every thread of this process so far. */
    private static long processCpuNow() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static Row measure(InProcessScheduler scheduler, int passed, double jobsPerSecond) {
        int rounds = 50;
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            scheduler.round();
        }
        double roundMs = (System.nanoTime() - start) / 1e6 / rounds;
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        double heapMb = (rt.totalMemory() - rt.freeMemory()) / 1048576.0;
        int inMemory = scheduler.jobsInMemory();
        return new Row(passed, inMemory, heapMb, roundMs, jobsPerSecond);
    }

    private static void print(Figures f, PrintStream out) {
        double seconds = f.nanos() / 1e9;
        long loopCpu = f.total().loopCpuNanos();
        out.println();
        out.printf("%d jobs in %.1f s: %.0f jobs/s (one loop thread, %d callers)%n", f.jobs(), seconds,
                f.jobsPerSecond(), f.callers());
        out.printf("the loop thread was on a CPU %.0f%% of that time, %.0f us a job: %.0f jobs/s on a core of its own%n",
                100.0 * loopCpu / f.nanos(), loopCpu / 1e3 / f.jobs(), f.jobs() / (loopCpu / 1e9));
        out.printf("every thread of the process (callers, loop, %s, accounting, GC, JIT): %.0f us of CPU a job%s%n",
                f.store().inProcess, f.processCpuNanos() / 1e3 / f.jobs(), f.store().notCounted);
        out.println("where the time went, per job (microseconds): each phase's wall time, the loop thread's CPU time in it,");
        out.println("and " + f.store().label + "'s commits and statements (units: commits per job); 'the rest' of the wall "
                + "time is the scheduler's");
        out.println("own code, its logging, the hand-offs between callers and the loop, and waiting for a CPU:");
        out.println("  phase                   wall  share  loop CPU |  commits (units)  statements (count) |  the rest");
        for (Phase p : Phase.values()) {
            line(out, p.label, f.costs().get(p), f);
        }
        line(out, "all", f.total(), f);
        Row first = f.first();
        Row last = f.last();
        out.printf("heap %.1f MB at %d jobs, %.1f MB at %d jobs: %.2fx; round %.2f ms -> %.2f ms%n", first.heapMb(),
                first.passed(), last.heapMb(), last.passed(), f.heapRatio(), first.roundMs(), last.roundMs());
    }

    private static void line(PrintStream out, String label, Cost c, Figures f) {
        double jobs = f.jobs();
        SqlStore.Stats s = c.store();
        out.printf("  %-20s %7.0f %5.1f%% %8.0f  | %6.0f (%5.2f)    %6.0f (%5.1f)        | %8.0f%n", label,
                c.nanos() / jobs / 1e3, 100.0 * c.nanos() / f.nanos(), c.loopCpuNanos() / jobs / 1e3,
                s.commitNanos() / jobs / 1e3, s.units() / jobs, s.statementNanos() / jobs / 1e3, s.statements() / jobs,
                (c.nanos() - s.commitNanos() - s.statementNanos()) / jobs / 1e3);
    }

    /**
     * The passes a line each, and each one's jobs/s against the first's: the figures the issue's target is about
     * (jobs/s, the heap flat), and what a job cost the loop and the store.
     */
    private static void sideBySide(List<Figures> all, PrintStream out) {
        Figures base = all.get(0);
        out.println();
        out.printf("side by side, %d jobs, %d callers (heap after a full collection at %d jobs and at the last; "
                + "loop: its CPU a job; a commit: a unit of work):%n", base.jobs(), base.callers(), base.first().passed());
        out.println("  store        jobs/s  heap MB first -> last (ratio)  round ms first -> last  loop us/job  "
                + "statements/job  us/statement  commits/job  ms/commit");
        for (Figures f : all) {
            SqlStore.Stats s = f.total().store();
            out.printf("  %-10s %8.0f  %6.1f -> %6.1f (%5.2fx)      %6.2f -> %6.2f    %9.0f  %14.1f  %12.1f  "
                    + "%11.2f  %9.3f%n", f.store().label, f.jobsPerSecond(), f.first().heapMb(), f.last().heapMb(), f.heapRatio(),
                    f.first().roundMs(), f.last().roundMs(), f.total().loopCpuNanos() / 1e3 / f.jobs(),
                    (double) s.statements() / f.jobs(), s.statementNanos() / 1e3 / Math.max(1, s.statements()),
                    (double) s.units() / f.jobs(), s.commitNanos() / 1e6 / Math.max(1, s.units()));
        }
        for (Figures f : all.subList(1, all.size())) {
            out.printf("%s/%s jobs/s: %.2f (%.0f against %.0f)%n", f.store().label, base.store().label,
                    f.jobsPerSecond() / base.jobsPerSecond(), f.jobsPerSecond(), base.jobsPerSecond());
        }
    }

    /** A site of 200 idle one-slot nodes, seen long ago (so no pilot of ours is missed from it). */
    private static SiteInfo idleSite(String site) {
        List<QueueInstance> queues = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            queues.add(new QueueInstance(site + ".q@" + site + "-n" + i, site + "-n" + i, 1, 0, 0, true, ""));
        }
        CellSnapshot snapshot = new CellSnapshot(site, Instant.EPOCH, List.of(), queues, List.of());
        AgentHealth health = new AgentHealth(site, site, "UP", null, Instant.EPOCH, "SGE", 0);
        return new SiteInfo(site, health, snapshot, null, Instant.EPOCH);
    }
}
