package koala.scheduler;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import koala.common.site.AgentHealth;
import koala.common.site.CellSnapshot;
import koala.common.site.QueueInstance;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.storage.H2Store;

/**
 * {@code bench scheduler-load}: many short jobs pass through the scheduler's own code — its books,
 * its real H2 store, placement, claiming, the node desk — on a made-up site of 200 idle nodes whose
 * pilots start at once (no SGE: what is measured is the scheduler, not the cells). Every thousand
 * jobs it prints the jobs in memory, the heap after a full collection and the mean time of a
 * scheduling round, once as the scheduler runs now (ended jobs leave memory after
 * {@code keepEnded}) and once as it ran before (every job kept for ever), in the same run.
 */
public final class LoadBench {
    private static final String JDF = "&(count = 1)(executable = /bin/true)";
    private static final int BATCH = 100;

    /** A clock the bench moves: a minute of scheduler time per hundred jobs. */
    private static final class Clock implements InstantSource {
        private Instant now = Instant.parse("2026-11-25T00:00:00Z");

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    /** One line of the table: after {@code passed} jobs. */
    public record Row(int passed, int inMemory, double heapMb, double roundMs) {
    }

    private LoadBench() {
    }

    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        run(jobs, System.out);
    }

    /** Runs both passes and prints them side by side; returns the rows of the bounded pass. */
    public static List<Row> run(int jobs, PrintStream out) throws Exception {
        out.printf("%d jobs of one node each, %d at a time, a minute of scheduler time per batch%n", jobs, BATCH);
        List<Row> before = pass(jobs, Duration.ofDays(3650), out, "every job kept in memory (as before)");
        List<Row> now = pass(jobs, Duration.ofMinutes(10), out, "ended jobs leave memory after 10 min (now)");
        out.println();
        out.println("     jobs |  in memory: before  now |  heap MB: before    now |  round ms: before    now");
        for (int i = 0; i < now.size(); i++) {
            Row b = before.get(i);
            Row n = now.get(i);
            out.printf("%9d | %17d %5d | %15.1f %6.1f | %16.2f %6.2f%n", n.passed(), b.inMemory(), n.inMemory(),
                    b.heapMb(), n.heapMb(), b.roundMs(), n.roundMs());
        }
        // from the second row on: by then the first keepEnded window (1000 jobs) has filled
        Row first = now.get(Math.min(1, now.size() - 1));
        Row last = now.get(now.size() - 1);
        out.printf("now: heap %.1f -> %.1f MB (%.2fx), round %.2f -> %.2f ms (%.2fx) from %d to %d jobs%n",
                first.heapMb(), last.heapMb(), last.heapMb() / first.heapMb(), first.roundMs(), last.roundMs(),
                last.roundMs() / first.roundMs(), first.passed(), last.passed());
        Row lastBefore = before.get(before.size() - 1);
        out.printf("before: heap %.1f MB, round %.2f ms at %d jobs (%.2fx, %.2fx the bounded scheduler's)%n",
                lastBefore.heapMb(), lastBefore.roundMs(), lastBefore.passed(), lastBefore.heapMb() / last.heapMb(),
                lastBefore.roundMs() / last.roundMs());
        return now;
    }

    private static List<Row> pass(int jobs, Duration keepEnded, PrintStream out, String title) throws Exception {
        out.println("-- " + title);
        Path dir = Files.createTempDirectory("koala-load-bench-");
        Clock clock = new Clock();
        SchedulerSettings settings = new SchedulerSettings(7400, Duration.ofSeconds(1), 150, Duration.ofMinutes(5), 3,
                "worst-fit", Duration.ofSeconds(1), Duration.ofMinutes(5), dir.resolve("koala"), 1_000_000, keepEnded,
                keepEnded.plusDays(1), dir.resolve("accounting.jsonl"));
        AtomicLong pilots = new AtomicLong();
        List<Row> rows = new ArrayList<>();
        // H2's page cache (16 MB by default) kept at 1 MB, and its chunks not kept 45 s after they die
        // (RETENTION_TIME: the bench commits a thousand times a second, where the scheduler commits a
        // few; the chunks' bookkeeping alone took 20 MB here), so that the heap shows the scheduler's own
        try (H2Store store = H2Store.open(settings.database(), ";CACHE_SIZE=1024;RETENTION_TIME=0")) {
            Pilots none = new Pilots((site, owner) -> null, Map.of(), site -> new Pilots.Launcher("java", List.of(),
                    List.of(), "http://koala-host:7400", dir.toString(), url -> url), Duration.ofMinutes(5),
                    store.pilotTag(), Runnable::run, () -> { });
            Submissions submissions = Submissions.direct((node, owner) -> Long.toString(pilots.incrementAndGet()));
            Scheduler scheduler = new Scheduler(settings, store, site -> java.util.Optional.of(idleSite(site)),
                    Map.of("fs0", 200), none, submissions, koala.placement.FileLocations.NONE, clock);
            for (int passed = 0; passed < jobs; passed += BATCH) {
                batch(scheduler, store, clock);
                if ((passed + BATCH) % 1000 == 0) {
                    rows.add(measure(scheduler, passed + BATCH));
                    out.printf("  %6d jobs: %5d in memory, heap %6.1f MB, round %.2f ms%n", rows.get(rows.size() - 1).passed(),
                            rows.get(rows.size() - 1).inMemory(), rows.get(rows.size() - 1).heapMb(),
                            rows.get(rows.size() - 1).roundMs());
                }
            }
        }
        return rows;
    }

    /** A hundred jobs submitted, placed, claimed, run and ended, and a minute passes. */
    private static void batch(Scheduler scheduler, H2Store store, Clock clock) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            ids.add(scheduler.submit("bench.jdf", JDF, "alice", null).id());
        }
        clock.advance(Duration.ofSeconds(2));
        scheduler.tick(); // placed; pilots submitted
        for (long id : ids) {
            for (NodeClaim n : store.nodes(id)) {
                scheduler.nodes().arrive(n.id(), n.token(), "fs0-n1");
            }
        }
        scheduler.tick(); // all claimed: running
        for (long id : ids) {
            for (NodeClaim n : store.nodes(id)) {
                scheduler.nodes().task(n.id(), n.token());
                scheduler.nodes().exited(n.id(), n.token(), 0);
            }
        }
        clock.advance(Duration.ofSeconds(58));
        scheduler.tick();
    }

    private static Row measure(Scheduler scheduler, int passed) {
        int rounds = 50;
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            scheduler.tick();
        }
        double roundMs = (System.nanoTime() - start) / 1e6 / rounds;
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        double heapMb = (rt.totalMemory() - rt.freeMemory()) / 1048576.0;
        return new Row(passed, scheduler.list().size(), heapMb, roundMs);
    }

    /** A site of 200 idle one-slot nodes, seen long ago (so no pilot of ours is missed from it). */
    private static SiteInfo idleSite(String site) {
        List<QueueInstance> queues = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            queues.add(new QueueInstance(site + ".q@" + site + "-n" + i, site + "-n" + i, 1, 0, 0, ""));
        }
        CellSnapshot snapshot = new CellSnapshot(site, Instant.EPOCH, List.of(), queues, List.of());
        AgentHealth health = new AgentHealth(site, site, "UP", null, Instant.EPOCH, "SGE", 0);
        return new SiteInfo(site, health, snapshot, null, Instant.EPOCH);
    }
}
