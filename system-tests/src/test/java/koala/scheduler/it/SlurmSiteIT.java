package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.grid.GridConfig;
import koala.common.time.Poll;
import koala.grid.KoalaHome;
import koala.testbed.LocalUser;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A grid of an SGE cluster and a Slurm cluster: the testbed with its Slurm cell ({@code testbed up --slurm 2},
 * fs3: Debian's slurmctld on its head node, a slurmd on each of 2 compute nodes of 2 CPUs), whose site agent
 * drives Slurm with its commands. One co-allocated job runs a component on fs0 (SGE) and one on fs3 (Slurm), as
 * its owner on both, and the two talk over TCP; a local user's job on fs3 is seen as load there; once the job
 * ended no pilot of it is left in either cluster. The testbed goes back to its three SGE cells afterwards.
 *
 * <p>Costs about a minute: the Slurm cell up (about 10 s) and down, a scheduler's start, the job (about 5 s).
 */
class SlurmSiteIT {
    private static Testbed testbed;
    private static TestScheduler scheduler;

    @BeforeAll
    static void withASlurmCell() throws Exception {
        testbed = new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system());
        testbed.up(TestScheduler.defaultPlan(testbed.status()).withSlurmCell(2));
        scheduler = TestScheduler.start(Map.of());
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
    void aJobCoAllocatedOverAnSgeAndASlurmClusterRunsAsItsOwnerOnBoth() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("fs3 up").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3").agent().equals("UP"));
        assertThat(site(client, "fs3").manager()).startsWith("slurm ");
        assertThat(site(client, "fs0").manager()).startsWith("SGE ");
        assertThat(site(client, "fs3").total()).isEqualTo(4);

        String tag = Long.toHexString(System.nanoTime());
        String owner = Testbed.USERS.get(0);
        SchedulerClient asOwner = scheduler.asRoot().actingFor(owner);
        JobView job = TestScheduler.submit(asOwner, "sge-and-slurm", exchange(tag));
        JobView end = TestScheduler.awaitEnd(asOwner, job.id(), Duration.ofSeconds(120));

        assertThat(end.state()).as(end.history().toString()).isEqualTo("FINISHED");
        assertThat(end.nodes()).extracting(NodeView::site).containsExactly("fs0", "fs3");
        assertThat(end.nodes()).extracting(NodeView::exitStatus).containsOnly(0);
        assertThat(end.nodes().get(1).host()).startsWith("fs3-n");
        assertThat(end.owner()).isEqualTo(owner);
        Path home = Path.of("/home", owner);
        assertThat(Files.readString(home.resolve("koala-slurm-" + tag + "-0.out"))).isEqualTo("fs0 got: ping from fs3\n");
        assertThat(Files.readString(home.resolve("koala-slurm-" + tag + "-1.out"))).isEqualTo("fs3 got: pong from fs0\n");
        Awaitility.await("no pilot of the job left in SGE or Slurm").atMost(Duration.ofSeconds(30))
                .until(() -> TestScheduler.pilotsNamedFor(grid, job.id()).isEmpty());
    }

    @Test
    void aLocalUsersJobOnTheSlurmClusterIsLoadThere() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        String local = LocalUser.sbatch(grid.site("fs3"), "local-load", "sleep", "600");
        try {
            SiteStatus loaded = Awaitility.await("the local job seen on fs3").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> site(client, "fs3"), s -> s.others() == 1);
            assertThat(loaded.koala()).isZero();
        } finally {
            LocalUser.run(grid.site("fs3"), "scancel", local);
        }
        Awaitility.await("the local job gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3").others() == 0);
    }

    /** Two components, one on fs0 that listens and one on fs3 that finds it in KOALA_NODES and connects. */
    private static String exchange(String tag) {
        String listen = "import os, socket\n"
                + "port = 40000 + int(os.environ['KOALA_JOB_ID']) % 20000\n"
                + "s = socket.socket()\n"
                + "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                + "s.bind(('', port))\n"
                + "s.listen(1)\n"
                + "s.settimeout(60)\n"
                + "c, _ = s.accept()\n"
                + "print(os.environ['KOALA_SITE'], 'got:', c.recv(100).decode(), flush=True)\n"
                + "c.sendall(('pong from ' + os.environ['KOALA_SITE']).encode())\n"
                + "c.close()\n";
        String connect = "import os, socket, time\n"
                + "peer = [n.split(':') for n in os.environ['KOALA_NODES'].split() if n.startswith('0:')][0]\n"
                + "port = 40000 + int(os.environ['KOALA_JOB_ID']) % 20000\n"
                + "for attempt in range(300):\n"
                + "    try:\n"
                + "        c = socket.create_connection((peer[3], port))\n"
                + "        break\n"
                + "    except OSError:\n"
                + "        time.sleep(0.2)\n"
                + "c.sendall(('ping from ' + os.environ['KOALA_SITE']).encode())\n"
                + "print(os.environ['KOALA_SITE'], 'got:', c.recv(100).decode(), flush=True)\n";
        return "+( &(resourceManagerContact = \"fs0\")(count = 1)(executable = \"/usr/bin/python3\")"
                + "(arguments = \"-c\" \"" + listen + "\")(stdout = \"${HOME}/koala-slurm-" + tag + "-0.out\") )"
                + " ( &(resourceManagerContact = \"fs3\")(count = 1)(executable = \"/usr/bin/python3\")"
                + "(arguments = \"-c\" \"" + connect + "\")(stdout = \"${HOME}/koala-slurm-" + tag + "-1.out\") )";
    }

    private static SiteStatus site(SchedulerClient client, String name) {
        return client.sites().stream().filter(s -> s.site().equals(name)).findFirst().orElseThrow();
    }
}
