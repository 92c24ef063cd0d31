package koala.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.api.scheduler.SubmitRequest;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.http.ApiException;
import koala.scheduler.SchedulerDaemon;
import koala.testbed.LocalUser;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"A walk through KOALA on the local testbed (about two minutes): bring the testbed up, start "
                + "the scheduler (or use the one running), deploy an OnDemand instance of the reference framework "
                + "and feed it a burst of jobs: watch it grow for them, reject what F_max leaves no room for, queue "
                + "word counts, and shrink after t_idle; then a summary.",
                "With --placement instead: a local user fills part of fs1 with plain qsub, and four jobs show "
                        + "co-allocation: two components on two clusters that exchange messages, a flexible job "
                        + "larger than any cluster, a co-allocated job placed by Worst-Fit, and a job pinned to fs1 "
                        + "that must wait for the local user."})
final class DemoCommand implements Callable<Integer> {
    private static final Duration LOCAL_LOAD = Duration.ofSeconds(20);

    @picocli.CommandLine.Option(names = "--placement", description = "the co-allocation walk instead of the framework")
    boolean placement;

    @Override
    public Integer call() throws Exception {
        Testbed testbed = TestbedCommand.testbed(System.out);
        section("1. The testbed: independent SGE cells on this machine");
        testbed.up(TestbedPlan.of(null, List.of(), 1, null));
        GridConfig grid = GridConfig.load(testbed.gridConfig());
        SchedulerClient client = TestbedUser.client(grid);
        client.actingFor().ifPresent(user -> System.out.println("  the demo's jobs are " + user + "'s (KOALA runs no "
                + "job as root; an admin acts for a user, as here)"));
        SchedulerDaemon own = running(client) ? null : startScheduler(grid);
        try {
            return placement ? walk(grid, client) : new FrameworkDemo(client, testbed.gridConfig()).run(3);
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    private int walk(GridConfig grid, SchedulerClient client) throws Exception {
        SiteConfig fs1 = grid.site("fs1");
        section("3. A local user of fs1 submits 6 jobs with plain qsub; KOALA must leave those nodes alone");
        List<String> local = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            local.add(LocalUser.qsub(fs1, "local-user", "/bin/sleep", Long.toString(LOCAL_LOAD.toSeconds())));
        }
        System.out.println("  jobs " + String.join(" ", local) + " on fs1, each for " + LOCAL_LOAD.toSeconds() + " s");

        section("4. Four jobs for KOALA");
        Map<String, Long> jobs = new LinkedHashMap<>();
        jobs.put("exchange", submit(client, "exchange.jdf", exchangeJdf()));
        jobs.put("flexible", submit(client, "flexible", "&(name = flexible-20)(jobType = flexible)(count = 20)"
                + "(executable = /bin/sleep)(arguments = 5)"));
        jobs.put("co-allocated", submit(client, "co-allocated", "+(&(name = co-allocated)(count = 3)"
                + "(executable = /bin/sleep)(arguments = 5))(&(count = 3)(executable = /bin/sleep)(arguments = 5))"));
        jobs.put("pinned", submit(client, "pinned", "&(name = pinned-to-fs1)(resourceManagerContact = fs1)(count = 4)"
                + "(executable = /bin/hostname)"));
        jobs.forEach((k, id) -> System.out.printf("  job %d: %s%n", id, k));

        section("5. The grid and the jobs as KOALA sees them, every two seconds");
        new Poll(InstantSource.system(), Duration.ofSeconds(2)).until(() -> show(client, jobs.values()),
                Duration.ofMinutes(4));

        section("6. Summary");
        boolean allFinished = true;
        for (long id : jobs.values()) {
            JobView j = client.job(id);
            allFinished &= j.state().equals("FINISHED");
            System.out.printf("  job %-3d %-22s %-9s %s%n", j.id(), j.name(), j.state(), j.history().stream()
                    .filter(t -> t.event().equals("PLACED")).map(t -> t.reason()).findFirst().orElse(""));
        }
        for (int c = 0; c < 2; c++) {
            Path out = Path.of("/tmp/koala-exchange-" + c + ".out");
            if (Files.exists(out)) {
                System.out.println("  exchange, component " + c + ": " + Files.readString(out).trim());
            }
        }
        System.out.println("  Next: bin/koala status <job> · bin/koala sites · bin/koala --help");
        return allFinished ? 0 : Koala.FAILURE;
    }

    private static boolean show(SchedulerClient client, Iterable<Long> jobs) {
        System.out.printf("  %-5s %6s %5s %6s %7s %9s%n", "SITE", "NODES", "IDLE", "KOALA", "OTHERS", "CLAIMING");
        for (SiteStatus s : client.sites()) {
            System.out.printf("  %-5s %6d %5d %6d %7d %9d%n", s.site(), s.total(), s.idle(), s.koala(), s.others(),
                    s.claiming());
        }
        boolean ended = true;
        for (long id : jobs) {
            JobView j = client.job(id);
            ended &= j.ended();
            System.out.printf("  job %-3d %-16s %-9s %s%n", j.id(), j.name(), j.state(),
                    j.waitingBecause() == null ? "" : j.waitingBecause());
        }
        System.out.println();
        return ended;
    }

    private static long submit(SchedulerClient client, String file, String jdf) {
        return client.submit(new SubmitRequest(file, jdf)).id();
    }

    private static String exchangeJdf() throws IOException {
        for (int c = 0; c < 2; c++) {
            Files.deleteIfExists(Path.of("/tmp/koala-exchange-" + c + ".out"));
        }
        try (var in = DemoCommand.class.getResourceAsStream("/demo/exchange.jdf")) {
            return new String(in.readAllBytes());
        }
    }

    private static boolean running(SchedulerClient client) {
        try {
            client.sites();
            System.out.println("\n== 2. Using the scheduler already running at " + client.base());
            return true;
        } catch (ApiException e) {
            return false;
        }
    }

    private static SchedulerDaemon startScheduler(GridConfig grid) throws IOException {
        section("2. The scheduler: one site agent per cell, the information service, the placement queue");
        SchedulerDaemon daemon = SchedulerDaemon.start(grid, KoalaHome.dir());
        System.out.println("  serving on " + daemon.url() + " (logs: KOALA_HOME/logs)");
        return daemon;
    }

    private static void section(String title) {
        System.out.println("\n== " + title);
    }
}
