package koala.cli;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import koala.common.grid.GridConfig;
import koala.common.grid.KoalaHome;
import koala.common.grid.SiteConfig;
import koala.common.process.AgentProcess;
import koala.common.site.CellSnapshot;
import koala.common.site.PilotSpec;
import koala.common.site.PilotStatus;
import koala.common.site.SiteAgentClient;
import koala.common.time.Poll;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"A walk through the grid on the local testbed: bring the testbed up, start one site agent per "
                + "cell, put a local user's job on the first cell with plain qsub, submit pilot jobs to every cell "
                + "through the agents, and show each site's nodes (KOALA's, others', free) until the pilots end."})
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--pilot-seconds", defaultValue = "8", description = "how long each pilot runs (default: ${DEFAULT-VALUE})")
    int pilotSeconds;

    @Override
    public Integer call() throws Exception {
        Testbed testbed = TestbedCommand.testbed(System.out);
        System.out.println("== 1. The testbed: independent SGE cells on this machine");
        testbed.up(TestbedPlan.of(null, List.of()));
        GridConfig grid = GridConfig.load(testbed.gridConfig());

        System.out.println("\n== 2. One site agent per cell (one DRMAA session each)");
        Map<SiteConfig, AgentProcess> agents = startAgents(grid);
        try {
            agents.forEach((site, agent) -> System.out.printf("  %-4s agent %s, log %s%n", site.name(), agent.url(),
                    agent.log()));
            SiteConfig first = grid.sites().get(0);
            System.out.println("\n== 3. A local user submits to " + first.name() + " with plain qsub (KOALA must see it)");
            String local = LocalUser.qsub(first, "demo-local-user", pilotSeconds * 3);
            System.out.println("  job " + local + " on " + first.name());

            System.out.println("\n== 4. KOALA submits pilots (one node each) to every site through its agent");
            List<Submitted> pilots = new ArrayList<>();
            agents.forEach((site, agent) -> {
                int n = Math.max(1, site.nodes() / 2);
                for (int i = 0; i < n; i++) {
                    pilots.add(new Submitted(agent.client(), agent.client().submit(
                            PilotSpec.of(PilotSpec.PREFIX + "demo", "/bin/sleep", Integer.toString(pilotSeconds)))));
                }
                System.out.printf("  %-4s %d pilots%n", site.name(), n);
            });

            System.out.println("\n== 5. The sites as KOALA sees them (refreshing until the pilots end)");
            Poll every = new Poll(InstantSource.system(), Duration.ofSeconds(2));
            every.until(() -> {
                printSites(agents);
                return pilots.stream().allMatch(p -> p.client().status(p.pilot().id()).state().isFinal());
            }, Duration.ofSeconds(pilotSeconds + 120L));
            printSites(agents);

            System.out.println("\n== 6. Summary");
            List<PilotStatus> ends = pilots.stream().map(p -> p.client().status(p.pilot().id())).toList();
            ends.stream().filter(e -> e.exitStatus() == null || e.exitStatus() != 0)
                    .forEach(e -> System.out.printf("  pilot %s on %s: %s %s%n", e.id(), e.site(), e.state(),
                            e.reason() == null ? "exit " + e.exitStatus() : e.reason()));
            long done = ends.stream().filter(e -> e.exitStatus() != null && e.exitStatus() == 0).count();
            System.out.printf("  %d of %d pilots ran and ended with exit status 0 on %d sites%n", done, pilots.size(),
                    agents.size());
            System.out.println("  Next: bin/koala testbed status · bin/koala bench sge-latency · bin/koala --help");
            return done == pilots.size() ? 0 : Koala.FAILURE;
        } finally {
            agents.values().forEach(AgentProcess::close);
        }
    }

    private record Submitted(SiteAgentClient client, PilotStatus pilot) {
    }

    private static Map<SiteConfig, AgentProcess> startAgents(GridConfig grid) {
        Map<SiteConfig, CompletableFuture<AgentProcess>> starting = new LinkedHashMap<>();
        grid.sites().forEach(site -> starting.put(site, CompletableFuture.supplyAsync(() -> AgentProcess.start(site,
                grid.file(), KoalaHome.dir(), 0, Duration.ofSeconds(60)))));
        Map<SiteConfig, AgentProcess> agents = new LinkedHashMap<>();
        starting.forEach((site, future) -> agents.put(site, future.join()));
        agents.values().forEach(a -> Poll.system().until(() -> a.client().health().up(), Duration.ofSeconds(60)));
        return agents;
    }

    private static void printSites(Map<SiteConfig, AgentProcess> agents) {
        System.out.printf("  %-5s %6s %6s %7s %7s %8s%n", "SITE", "NODES", "FREE", "KOALA", "OTHERS", "PENDING");
        agents.forEach((site, agent) -> {
            CellSnapshot s = agent.client().snapshot();
            System.out.printf("  %-5s %6d %6d %7d %7d %8d%n", site.name(), s.slotsTotal(), s.slotsFree(),
                    s.slotsUsedByKoala(), s.slotsUsedByOthers(), s.pendingJobs());
        });
        System.out.println();
    }
}
