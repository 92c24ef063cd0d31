package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.common.time.Poll;
import koala.grid.Accounts;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import org.assertj.core.groups.Tuple;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A remote Slurm site: the testbed's Slurm cell behind its head node ({@code testbed up --slurm 2
 * --slurm-remote}), as fs2 is among the SGE cells. KOALA reaches fs3 by SSH alone: its site agent is copied to
 * fs3-head and runs there with Slurm's commands; slurmctld and the slurmds talk on fs3's own network, which this
 * machine does not join; the pilots, Slurm jobs on fs3's compute nodes, run the launcher from the jars copied to
 * the head node and call back through the agent's relay there. A job co-allocated over fs0 (SGE, local) and fs3
 * runs its three nodes and finishes; an allocation grows a node onto fs3 and gives it back; pilots equal nodes
 * after each, none left after. The testbed goes back to its three SGE cells afterwards.
 *
 * <p>Costs about 60 s: the remote Slurm cell up (its hosts made, about 15 s) and down, a scheduler's start, the
 * agent's first copy of the jars to fs3-head, a job (about 10 s) and a grow and release (about 10 s).
 */
class RemoteSlurmSiteIT {
    private static final String REMOTE_DIR = ".koala-it"; // in fs3's koala home
    private static Testbed testbed;
    private static TestScheduler scheduler;

    @BeforeAll
    static void withARemoteSlurmCell() throws Exception {
        testbed = new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system());
        testbed.up(TestScheduler.defaultPlan(testbed.status()).withSlurmCell(2, true));
        scheduler = TestScheduler.start(Map.of("site.fs3.ssh.dir", REMOTE_DIR));
    }

    @AfterAll
    static void backToSgeAlone() {
        try {
            if (scheduler != null) {
                scheduler.close();
            }
        } finally {
            testbed.up(TestScheduler.defaultPlan(testbed.status()));
        }
    }

    @Test
    void aJobCoAllocatedOverAnSgeClusterAndARemoteSlurmClusterRuns() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("fs3 up through SSH").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3").agent().equals("UP"));
        assertThat(site(client, "fs3").manager()).startsWith("slurm ");
        assertThat(site(client, "fs3").total()).isEqualTo(4);

        // each site's nodes write in their own home: fs0's is this machine's, fs3's the remote site's own
        String name = "koala-remote-slurm-it-" + Long.toHexString(System.nanoTime());
        Path local = Accounts.directoryOf("koala", name);
        Path remote = Testbed.remoteHome("fs3", "koala").resolve(name);
        Files.createDirectories(remote);
        Files.setOwner(remote, local.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("koala"));
        String command = "echo $KOALA_SITE $KOALA_NODE_ID $(hostname) >> $HOME/" + name + "/nodes.out; "
                + "while [ ! -f $HOME/" + name + "/go ]; do sleep 0.2; done";
        long id = TestScheduler.submit(client, "sge-and-remote-slurm", "+" + component("fs0", 1, command)
                + component("fs3", 2, command)).id();

        assertThat(TestScheduler.awaitState(client, id, "RUNNING", Duration.ofSeconds(60)).state()).isEqualTo("RUNNING");
        Awaitility.await("every node started its command").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200)).until(() -> lines(local).size() + lines(remote).size() == 3);
        assertThat(lines(local)).extracting(l -> l.split(" ")[0]).containsExactly("fs0");
        assertThat(lines(remote)).extracting(l -> l.split(" ")[0]).containsExactly("fs3", "fs3");
        assertThat(lines(remote)).extracting(l -> l.split(" ")[2]).allMatch(h -> h.matches("fs3-n\\d+"));
        assertThat(TestScheduler.pilotsNamedFor(grid, id)).as("a pilot for each node, two of them Slurm jobs on fs3")
                .hasSize(3).filteredOn(p -> p.startsWith("fs3:")).hasSize(2);
        // fs3's launchers run from the jars copied to the head node and call back through the agent's relay there
        List<String> fs3Launchers = ProcessHandle.allProcesses().map(p -> koala.process.CommandLines.of(p).orElse(""))
                .filter(c -> c.contains("koala.node.NodeLauncher") && c.contains("--node " + id + ".1.")
                        && c.contains(REMOTE_DIR + "/lib/")).toList();
        assertThat(fs3Launchers).hasSize(2).allSatisfy(c -> assertThat(c)
                .doesNotContain("--scheduler " + client.base())
                .containsPattern("--scheduler http://fs3-head:\\d+ "));

        Files.writeString(local.resolve("go"), "");
        Files.writeString(remote.resolve("go"), "");
        JobView done = TestScheduler.awaitEnd(client, id, Duration.ofSeconds(60));
        assertThat(done.state()).as("%s", done.history()).isEqualTo("FINISHED");
        assertThat(done.nodes()).extracting(NodeView::site, NodeView::exitStatus).containsExactlyInAnyOrder(
                Tuple.tuple("fs0", 0), Tuple.tuple("fs3", 0), Tuple.tuple("fs3", 0));
        Awaitility.await("no pilot of the job left in SGE or Slurm").atMost(Duration.ofSeconds(30))
                .until(() -> TestScheduler.pilotsNamedFor(grid, id).isEmpty());
    }

    /** An allocation (as a framework's runner holds one) grows a node onto fs3 and releases it. */
    @Test
    void anAllocationGrowsOntoTheRemoteSlurmClusterAndShrinks() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("fs3 up through SSH").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3").agent().equals("UP"));
        long allocation = client.allocate(new AllocationRequest("onto-remote-slurm")).id();
        try {
            GrowResult grown = client.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"),
                    Map.of(), "fs3"));
            assertThat(grown.granted()).as("the grow on fs3: %s", grown.reason()).isEqualTo(1);
            Awaitility.await("the node on fs3 running, its pilot a Slurm job there").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(300)).until(() -> {
                        List<NodeView> nodes = client.heldNow(allocation).nodes();
                        List<String> pilots = TestScheduler.pilotsNamedFor(grid, allocation);
                        return nodes.size() == 1 && nodes.get(0).state().equals("RUNNING") && pilots.size() == 1
                                && pilots.get(0).startsWith("fs3:");
                    });
            String node = client.heldNow(allocation).nodes().get(0).id();
            assertThat(client.heldNow(allocation).nodes().get(0).host()).matches("fs3-n\\d+");
            client.release(allocation, new ReleaseRequest(List.of(node), "shrink on the remote Slurm site"));
            Awaitility.await("the node given back, its Slurm job gone").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(300)).until(() -> client.heldNow(allocation).nodes().isEmpty()
                            && TestScheduler.pilotsNamedFor(grid, allocation).isEmpty());
        } finally {
            client.closeAllocation(allocation);
        }
    }

    private static String component(String site, int count, String command) {
        return "( &(resourceManagerContact = \"" + site + "\")(count = " + count + ")(executable = \"/bin/sh\")"
                + "(arguments = \"-c\" \"" + command + "\") )";
    }

    private static List<String> lines(Path dir) throws java.io.IOException {
        Path file = dir.resolve("nodes.out");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    private static SiteStatus site(SchedulerClient client, String name) {
        return client.sites().stream().filter(s -> s.site().equals(name)).findFirst().orElseThrow();
    }
}
