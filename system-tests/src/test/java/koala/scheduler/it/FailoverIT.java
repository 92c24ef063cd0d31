package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.common.net.FreePort;
import koala.grid.GridConfig;
import koala.http.ApiException;
import koala.scheduler.SchedulerChild;
import koala.testbed.PostgresServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Two schedulers, a and b, on one PostgreSQL store of their own: a leads, b is a standby that answers
 * who leads. {@code kill -9} of a: b takes over within the lease's term, adopts the site agents, the
 * pilots and the allocation, the MPI job running over fs0 and fs1 through the take-over finishes on it
 * with every rank's result, the instance grows under it; a started again is a standby. Then b is paused
 * (SIGSTOP) until a has taken over again: resumed, b finds its lease gone, steps down (exit status 3) and
 * writes nothing; a carries the instance on. Last, PostgreSQL is restarted while a client of both submits
 * a job every 250 ms and grows the instance: whichever leads after it (a leader whose unit lost its
 * connection steps down and is started again, as systemd would, as a standby) has every acknowledged
 * submit once, none twice, and a pilot for every node.
 * Costs 55 s at a load average of 5 on two cores, 77-91 s at 6-9 (an MPI job of 12 s running through the
 * first take-over; two or three take-overs; three grows; five or six scheduler starts): of that, the MPI
 * job (rather than a sleep) takes 1-2 s and the store's restart under load 8-16 s, most of it b's start
 * again as a standby.
 */
class FailoverIT {
    private static final String PASSWORD = "failover-it";
    /** How often the client under load submits: a rate, not a wait. */
    private static final Duration LOAD_EVERY = Duration.ofMillis(250);
    /** Acknowledged submits wanted before the store's restart, and again after it. */
    private static final int SUBMITS_AROUND_THE_RESTART = 8;

    /** Every scheduler process the test started, to be stopped at its end. */
    private final List<SchedulerChild> started = new ArrayList<>();

    @Test
    void theStandbyTakesOverFromAKilledLeaderOrAStoreRestartAndTheGridCarriesOn() throws Exception {
        Path pgDir = Files.createTempDirectory("koala-failover-pg-");
        try (PostgresServer pg = PostgresServer.start(pgDir, FreePort.any(), List.of("127.0.0.1"), List.of(), List.of())) {
            pg.createDatabase("koala_failover", "koala", PASSWORD);
            Path password = Files.createTempFile("koala-failover-", ".password",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(password, PASSWORD + "\n");
            int portA = FreePort.any();
            int portB = FreePort.any();
            Path configA = config(pg, password, portA);
            Path configB = config(pg, password, portB);
            String host = GridConfig.load(configA).hostAddress().orElse("127.0.0.1");
            for (Path config : List.of(configA, configB)) {
                Files.writeString(config, "scheduler.addresses = http://" + host + ":" + portA + ", http://" + host + ":"
                        + portB + "\n", java.nio.file.StandardOpenOption.APPEND);
            }
            try {
                takeOver(pg, new Scheduler("a", configA), new Scheduler("b", configB));
            } finally {
                stopAll();
            }
        } finally {
            delete(pgDir);
        }
    }

    private static Path config(PostgresServer pg, Path password, int port) throws Exception {
        return TestScheduler.config(Map.of(
                "scheduler.port", Integer.toString(port),
                "scheduler.database", pg.jdbcUrl("127.0.0.1", "koala_failover"),
                "scheduler.database.passwordFile", password.toString()));
    }

    /** One of the two schedulers: its configuration and a client of it alone. */
    private record Scheduler(String name, Path config, GridConfig grid, SchedulerClient client) {
        Scheduler(String name, Path config) {
            this(name, config, GridConfig.load(config),
                    new SchedulerClient(GridConfig.load(config).schedulerAddress()).actingFor(TestScheduler.OWNER));
        }
    }

    private SchedulerChild start(Scheduler scheduler) throws Exception {
        SchedulerChild child = SchedulerChild.start(scheduler.config(), ProcessBuilder.Redirect.INHERIT);
        started.add(child);
        return child;
    }

    private void takeOver(PostgresServer pg, Scheduler a, Scheduler b) throws Exception {
        SchedulerChild aFirst = start(a);
        aFirst.ready().get(120, TimeUnit.SECONDS);
        SchedulerChild bFirst = start(b);
        SchedulerClient viaA = a.client();
        SchedulerClient viaB = b.client();
        SchedulerClient following = SchedulerClient.following(List.of(a.grid().schedulerAddress(),
                b.grid().schedulerAddress())).actingFor(TestScheduler.OWNER);
        awaitStandby(viaB, "leading this grid is");
        Mpi mpi = Mpi.submit(viaA);
        long allocation = viaA.allocate(new AllocationRequest("runner-failover")).id();
        viaA.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs0"));
        // the whole world up (each rank passed a barrier): its Open MPI daemons were started through a, which dies next
        mpi.awaitRanksStarted();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> viaA.job(allocation).nodes().stream()
                .allMatch(n -> n.state().equals("RUNNING")));

        long killed = System.nanoTime();
        aFirst.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: a's lease is left to pass
        assertThat(bFirst.ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
        double tookOver = (System.nanoTime() - killed) / 1e9;
        JobView seen = viaB.job(mpi.id());
        double served = (System.nanoTime() - killed) / 1e9;
        System.out.printf("b led %.2f s after a's kill -9 and served its first answer after %.2f s%n", tookOver, served);
        assertThat(seen.state()).isIn("RUNNING", "FINISHED");

        assertThat(following.job(mpi.id()).id()).as("a client of both follows the leader").isEqualTo(mpi.id());
        long after = TestScheduler.submit(following, "after-the-take-over", "&(resourceManagerContact = \"fs1\")"
                + "(count = 1)(executable = \"/bin/true\")").id();
        mpi.assertFinishedWithEveryRank(viaB);
        assertThat(TestScheduler.awaitEnd(viaB, after, Duration.ofSeconds(60)).state()).isEqualTo("FINISHED");
        viaB.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs1"));
        Awaitility.await("the grow under b").atMost(Duration.ofSeconds(60)).until(() -> {
            List<NodeView> nodes = viaB.job(allocation).nodes();
            return nodes.size() == 2 && nodes.stream().allMatch(n -> n.state().equals("RUNNING"));
        });
        assertThat(TestScheduler.pilotsNamedFor(b.grid(), allocation)).as("pilots == nodes after the take-over")
                .hasSize(2);
        Awaitility.await("the MPI job's pilots leave").atMost(Duration.ofSeconds(60))
                .until(() -> TestScheduler.pilotsNamedFor(b.grid(), mpi.id()).isEmpty());

        SchedulerChild aAgain = start(a);
        awaitStandby(viaA, "at http://");

        // b paused (SIGSTOP) past its lease: a takes over; b, resumed, is fenced and steps down
        signal("STOP", bFirst.process());
        assertThat(aAgain.ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
        signal("CONT", bFirst.process());
        assertThat(bFirst.process().waitFor(15, TimeUnit.SECONDS)).as("b steps down once it wakes").isTrue();
        assertThat(bFirst.process().exitValue()).as("b's exit status: stepped down").isEqualTo(3);
        SchedulerChild bAgain = start(b); // as systemd would
        assertThat(viaA.job(allocation).nodes()).extracting(NodeView::state).containsOnly("RUNNING");
        assertThat(TestScheduler.pilotsNamedFor(a.grid(), allocation)).as("pilots == nodes after the second take-over")
                .hasSize(2);
        awaitStandby(viaB, "at http://");

        storeRestartedUnderLoad(pg, following, allocation, new Child(a, aAgain), new Child(b, bAgain));

        assertThat(following.closeAllocation(allocation).nodes()).extracting(NodeView::state).containsOnly("RELEASED");
        Awaitility.await("the allocation's pilots leave").atMost(Duration.ofSeconds(60))
                .until(() -> TestScheduler.pilotsNamedFor(a.grid(), allocation).isEmpty());
    }

    /** A scheduler and its process now. */
    private record Child(Scheduler scheduler, SchedulerChild process) {
    }

    /** A submit the scheduler acknowledged: the job it made of it. */
    private record Acknowledged(String name, long id) {
    }

    /**
     * PostgreSQL stopped and started again on its directory and port while a client of both schedulers
     * submits a job every {@link #LOAD_EVERY}, each under a request id of its own, and grows the
     * allocation. The jobs ask for all of fs1, of which the allocation holds a node: they wait in the
     * placement queue, so the load is the scheduler's and the store's, not one pilot per job.
     */
    private void storeRestartedUnderLoad(PostgresServer pg, SchedulerClient following, long allocation, Child leader,
            Child standby) throws Exception {
        GridConfig grid = leader.scheduler().grid();
        String waiting = "&(resourceManagerContact = \"fs1\")(count = " + grid.nodeCounts().get("fs1")
                + ")(executable = \"/bin/true\")";
        String run = Long.toHexString(System.nanoTime());
        List<Acknowledged> acknowledged = new CopyOnWriteArrayList<>();
        List<String> givenUp = new CopyOnWriteArrayList<>();
        AtomicInteger submits = new AtomicInteger();
        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        CompletableFuture<GrowResult> grow;
        boolean tookOver;
        try {
            load.scheduleAtFixedRate(() -> {
                String name = "load-" + submits.incrementAndGet();
                try {
                    acknowledged.add(new Acknowledged(name, following.submit(
                            new SubmitRequest(name, waiting, name + "-" + run)).id()));
                } catch (RuntimeException e) {
                    givenUp.add(name + ": " + e.getMessage());
                }
            }, 0, LOAD_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            Awaitility.await("submits before the restart").atMost(Duration.ofSeconds(60))
                    .until(() -> acknowledged.size() >= SUBMITS_AROUND_THE_RESTART);

            long epochBefore = lease(pg).epoch();
            pg.stop();
            grow = CompletableFuture.supplyAsync(() -> following.grow(allocation,
                    new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs0")));
            pg.start();
            // the lease renewed or taken once the store is back decides who leads: the leader renewed it, or its
            // lease passed while the store was away (or a unit of its lost its connection) and the standby took it
            Lease back = lease(pg);
            Lease decided = Awaitility.await("the lease renewed or taken after the restart").atMost(Duration.ofSeconds(30))
                    .ignoreExceptions().until(() -> lease(pg), l -> !l.equals(back));
            tookOver = decided.epoch() != epochBefore;
            int before = acknowledged.size();
            Awaitility.await("submits after the restart").atMost(Duration.ofSeconds(90))
                    .until(() -> acknowledged.size() >= before + SUBMITS_AROUND_THE_RESTART);
        } finally {
            load.shutdown();
            assertThat(load.awaitTermination(SchedulerClient.RETRY_FOR.toSeconds() + 15, TimeUnit.SECONDS)).isTrue();
        }
        // a grow answered is granted once, however often it was tried; one given up may have been granted or not
        Integer granted;
        String grown;
        try {
            granted = grow.get(SchedulerClient.RETRY_FOR.toSeconds() + 15, TimeUnit.SECONDS).granted();
            grown = "was granted " + granted + " node";
        } catch (ExecutionException e) {
            granted = null;
            grown = "was given up: " + e.getCause().getMessage();
        }

        // a leader that lost its lease steps down; systemd would start it again
        Child leading = leader;
        if (tookOver) {
            assertThat(leader.process().process().waitFor(15, TimeUnit.SECONDS)).as(leader.scheduler().name()
                    + " steps down").isTrue();
            assertThat(leader.process().process().exitValue()).as(leader.scheduler().name() + "'s exit status")
                    .isEqualTo(3);
            assertThat(standby.process().ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
            start(leader.scheduler());
            awaitStandby(leader.scheduler().client(), "at http://");
            leading = standby;
        } else {
            awaitStandby(standby.scheduler().client(), "at http://");
        }
        System.out.printf("the store restarted under load: %s leads after it (%s); %d submits acknowledged, %d given up %s;"
                + " the grow %s%n", leading.scheduler().name(), leading == leader ? "it led before"
                : leader.scheduler().name() + " stepped down and came back as a standby", acknowledged.size(),
                givenUp.size(), givenUp, grown);

        SchedulerClient viaLeader = leading.scheduler().client();
        List<JobView> loadJobs = viaLeader.jobs().stream().filter(j -> j.name().startsWith("load-")).toList();
        Map<String, List<Long>> made = loadJobs.stream()
                .collect(Collectors.groupingBy(JobView::name, Collectors.mapping(JobView::id, Collectors.toList())));
        assertThat(made).as("the jobs made of each submit").allSatisfy((name, ids) -> assertThat(ids).hasSize(1));
        assertThat(acknowledged).allSatisfy(s -> assertThat(made.get(s.name())).as(s.name()).containsExactly(s.id()));
        List<NodeView> held = Awaitility.await("pilots == nodes after the store's restart").atMost(Duration.ofSeconds(60))
                .until(() -> {
                    List<NodeView> nodes = viaLeader.heldNow(allocation).nodes();
                    boolean settled = nodes.stream().allMatch(n -> n.state().equals("RUNNING"))
                            && TestScheduler.pilotsNamedFor(grid, allocation).size() == nodes.size();
                    return settled ? nodes : null;
                }, java.util.Objects::nonNull);
        if (granted != null) {
            assertThat(held).as("the allocation's nodes after a grow of " + granted).hasSize(2 + granted);
        }
        // they would wait 150 placement rounds, and take fs1 once the allocation leaves it
        loadJobs.stream().filter(j -> !j.ended()).forEach(j -> viaLeader.cancel(j.id()));
    }

    /** The lease's row in the store: who holds it, at which epoch, until when (the database's clock). */
    private record Lease(String holder, long epoch, java.time.OffsetDateTime expiresAt) {
    }

    private static Lease lease(PostgresServer pg) throws java.sql.SQLException {
        java.sql.DriverManager.setLoginTimeout(10);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(pg.jdbcUrl("127.0.0.1", "koala_failover"),
                "koala", PASSWORD);
             java.sql.ResultSet r = c.createStatement().executeQuery("SELECT holder, epoch, expires_at FROM leader")) {
            assertThat(r.next()).as("the lease's row").isTrue();
            return new Lease(r.getString(1), r.getLong(2), r.getObject(3, java.time.OffsetDateTime.class));
        }
    }

    /**
     * An Open MPI job over both clusters (2 ranks on fs0, 1 on fs1): the ranks pass a barrier, say so,
     * sleep 12 s and sum their ranks, which each prints; its output goes to a directory the nodes share.
     */
    private record Mpi(long id, Path out, Path err) {
        private static final int RANKS = 3;

        static Mpi submit(SchedulerClient client) throws Exception {
            Path dir = TestScheduler.nodeDir("koala-failover-mpi");
            Path program = Files.writeString(dir.resolve("ranks.py"), """
                    import time
                    from mpi4py import MPI
                    world = MPI.COMM_WORLD
                    world.Barrier()
                    print(f"rank {world.Get_rank()} of {world.Get_size()} started", flush=True)
                    time.sleep(12)
                    total = world.allreduce(world.Get_rank())
                    print(f"rank {world.Get_rank()} of {world.Get_size()}: {total}", flush=True)
                    """);
            Path out = dir.resolve("ranks.out");
            Path err = dir.resolve("ranks.err");
            String component = "(&%s(resourceManagerContact = \"%s\")(count = %d)(executable = \"/usr/bin/python3\")"
                    + "(arguments = \"" + program + "\")(stdout = \"" + out + "\")(stderr = \"" + err + "\"))";
            String jdf = "+" + String.format(component, "(runner = mpi)", "fs0", 2) + String.format(component, "", "fs1", 1);
            return new Mpi(TestScheduler.submit(client, "mpi-through-a-take-over", jdf).id(), out, err);
        }

        void awaitRanksStarted() {
            Awaitility.await("the MPI job's ranks start").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> ranks(" started").size() == RANKS);
        }

        void assertFinishedWithEveryRank(SchedulerClient client) throws Exception {
            JobView finished = TestScheduler.awaitEnd(client, id, Duration.ofSeconds(90));
            assertThat(finished.state()).as(finished.history() + "\n" + read(err)).isEqualTo("FINISHED");
            assertThat(finished.nodes()).extracting(NodeView::exitStatus).containsOnly(0);
            // every rank's sum of the ranks 0 + 1 + 2, as mpirun forwards them (two may share a line of the file)
            assertThat(ranks(": \\d+")).containsExactly("rank 0 of 3: 3", "rank 1 of 3: 3", "rank 2 of 3: 3");
        }

        private List<String> ranks(String saying) throws Exception {
            return Pattern.compile("rank \\d+ of \\d+" + saying).matcher(read(out)).results().map(MatchResult::group)
                    .sorted().toList();
        }

        private static String read(Path file) throws Exception {
            return Files.exists(file) ? Files.readString(file) : "";
        }
    }

    /**
     * Stops every scheduler the test started, the standbys first: a standby stopped after the leader would
     * take over and start all over again.
     */
    private void stopAll() throws Exception {
        List<SchedulerChild> order = new ArrayList<>(started);
        order.sort(java.util.Comparator.comparing(c -> c.ready().isDone()));
        for (SchedulerChild child : order) {
            Process p = child.process();
            signal("CONT", p);
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void signal(String name, Process p) throws Exception {
        if (p.isAlive()) {
            new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Waits until the scheduler {@code client} calls answers as a standby, naming the leader ({@code naming}). */
    private static void awaitStandby(SchedulerClient client, String naming) {
        Awaitility.await("a standby's answer").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .ignoreException(ApiException.class).until(() -> {
                    try {
                        client.jobs();
                        return false;
                    } catch (ApiException e) {
                        return e.status() == 503 && e.getMessage().contains("standby") && e.getMessage().contains(naming);
                    }
                });
    }

    private static void delete(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory: the system's to clean up then
        }
    }
}
