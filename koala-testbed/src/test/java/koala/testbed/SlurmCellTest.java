package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmCellTest {
    private static final TestbedPlan DEFAULT = TestbedPlan.of(null, List.of(), 1, null);
    private static final Path DIR = Path.of("/srv/koala-testbed/fs3/slurm");

    /** --slurm adds fs3 after the three SGE cells: local, on the grid's network, its head at .13. */
    @Test
    void theSlurmCellComesAfterTheSgeCellsAsALocalCell() {
        TestbedPlan plan = DEFAULT.withSlurmCell(4);
        CellPlan fs3 = plan.cell("fs3");
        assertThat(fs3).isEqualTo(new CellPlan("fs3", 3, 4, 2, 6466, 6467, false, List.of(), CellPlan.Manager.SLURM));
        assertThat(fs3.slurm()).isTrue();
        assertThat(plan.cells().subList(0, 3)).noneMatch(CellPlan::slurm);
        assertThat(plan.host("fs3-head").gridAddress()).isEqualTo("198.18.0.13");
        assertThat(plan.host("fs3-n4").gridAddress()).isEqualTo("198.18.4.14");
        assertThat(DEFAULT.withSlurmCell(0)).isEqualTo(DEFAULT);
        assertThat(plan.slurmNodes()).isEqualTo(4);
        assertThat(DEFAULT.slurmNodes()).isZero();
        assertThatThrownBy(() -> DEFAULT.withSlurmCell(-1)).hasMessage("--slurm -1: choose 1..240 compute nodes");
    }

    @Test
    void slurmConfNamesTheControllerEachNodeWithItsCpusMemoryAndGpusAndOnePartition() {
        CellPlan fs3 = DEFAULT.withSlurmCell(3).withShapes(List.of("fs3=1x4c/8G/2gpu")).cell("fs3");
        String conf = SlurmCell.slurmConf(fs3, DIR, "198.18.0.13");
        assertThat(conf).contains("ClusterName=fs3\nSlurmctldHost=fs3-head(198.18.0.13)\n",
                "StateSaveLocation=/srv/koala-testbed/fs3/slurm/state/ctl\n",
                "SlurmdSpoolDir=/srv/koala-testbed/fs3/slurm/state/%n\n",
                "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\nDefMemPerCPU=256\n");
        assertThat(conf).endsWith("GresTypes=gpu\n"
                + "NodeName=fs3-n1 NodeAddr=198.18.4.11 CPUs=4 RealMemory=8192 Gres=gpu:2 State=UNKNOWN\n"
                + "NodeName=fs3-n2 NodeAddr=198.18.4.12 CPUs=2 RealMemory=4096 State=UNKNOWN\n"
                + "NodeName=fs3-n3 NodeAddr=198.18.4.13 CPUs=2 RealMemory=4096 State=UNKNOWN\n"
                + "PartitionName=fs3 Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n");
        assertThat(SlurmCell.gresConf(fs3, DIR)).endsWith("AutoDetect=off\n"
                + "NodeName=fs3-n1 Name=gpu File=/srv/koala-testbed/fs3/slurm/dev/nvidia[0-1]\n");
    }

    /** sinfo's %C is allocated/idle/other/total CPUs; squeue prints a state a line. */
    @Test
    void usageIsReadFromSinfoAndSqueue() {
        assertThat(SlurmCell.usage("3/5/0/8\n", "RUNNING\nRUNNING\nPENDING\nCOMPLETING\n"))
                .isEqualTo(new SlurmCell.Usage(3, 2, 1));
        assertThat(SlurmCell.usage("garbled", "")).isEqualTo(new SlurmCell.Usage(-1, 0, 0));
    }

    /** The record of a testbed without Slurm is as before; one with it keeps the cell's manager. */
    @Test
    void theRecordKeepsTheManagerOfASlurmCellAndLeavesSgeOut(@TempDir Path home) throws Exception {
        new TestbedRecord("vm", DEFAULT).write(home);
        assertThat(Files.readString(TestbedRecord.file(home))).doesNotContain("manager");
        TestbedPlan withSlurm = DEFAULT.withSlurmCell(2);
        new TestbedRecord("vm", withSlurm).write(home);
        assertThat(Files.readString(TestbedRecord.file(home))).containsOnlyOnce("\"manager\" : \"slurm\"");
        assertThat(TestbedRecord.read(home).plan()).isEqualTo(withSlurm);
    }

    /** An up without --slurm drops the Slurm cell's keys the testbed wrote, and keeps an admin's own beside them. */
    @Test
    void theSlurmCellsKeysGoWithTheCell() {
        java.util.function.Function<CellPlan, RemoteHead> head =
                c -> new RemoteHead(c, Path.of("/srv/koala-testbed").resolve(c.name()), Path.of("/var/lib/koala"));
        String withSlurm = GridConfigFile.render(DEFAULT.withSlurmCell(2), "koala", head)
                + "\nsite.fs3.node.slots = 2\n";
        String without = GridConfigFile.render(DEFAULT, "koala", head);

        GridConfigFile.Merged merged = GridConfigFile.merge(withSlurm, without,
                GridConfigFile.written(GridConfigFile.render(DEFAULT.withSlurmCell(2), "koala", head)));

        assertThat(merged.text()).doesNotContain("site.fs3.manager", "site.fs3.slurm.conf")
                .contains("grid.sites = fs0, fs1, fs2\n", GridConfigFile.KEPT + "\nsite.fs3.node.slots = 2\n");
    }

    /**
     * The Slurm cell is a local site of the grid: its slurm.conf instead of SGE's cell and DRMAA. Its node count is
     * KOALA's nodes of the defaults it holds, one a CPU: 2 hosts of 2 CPUs are 4 (said 2, the hosts, a JDF of 3
     * nodes pinned there was refused at {@code koala submit} though the cell holds 4).
     */
    @Test
    void theGridFileMakesTheSlurmCellALocalSite() {
        String grid = GridConfigFile.render(DEFAULT.withSlurmCell(2), "koala",
                c -> new RemoteHead(c, Path.of("/srv/koala-testbed").resolve(c.name()), Path.of("/var/lib/koala")));
        assertThat(grid).contains("grid.sites = fs0, fs1, fs2, fs3\n", "site.fs3.manager = slurm\n",
                "site.fs3.slurm.conf = /srv/koala-testbed/fs3/slurm/slurm.conf\n", "site.fs3.agent.user = koala\n",
                "site.fs3.shared = /srv/koala-testbed/fs3/shared\n", "site.fs3.node.count = 4\n");
        assertThat(grid).doesNotContain("site.fs3.sge", "site.fs3.drmaa");
    }

    /**
     * --slurm 2 --slurm-remote: fs3 as fs2 is among the SGE cells. Its head node is on the grid's network (.13) and
     * on fs3's own (198.19.3.1), its compute nodes on fs3's own alone; slurm.conf names the controller and the nodes
     * by those private addresses, where they reach each other; the grid file reaches it by SSH to its head node,
     * where its agent runs (no agent.user, no shared directory of this machine's).
     */
    @Test
    void aRemoteSlurmCellSitsBehindItsHeadNode() {
        TestbedPlan plan = DEFAULT.withSlurmCell(2, true);
        CellPlan fs3 = plan.cell("fs3");
        assertThat(fs3.remote()).isTrue();
        assertThat(plan.slurmRemote()).isTrue();
        assertThat(DEFAULT.withSlurmCell(2).slurmRemote()).isFalse();
        assertThat(plan.host("fs3-head").gridAddress()).isEqualTo("198.18.0.13");
        assertThat(plan.host("fs3-head").clusterAddress()).isEqualTo("198.19.3.1");
        assertThat(plan.host("fs3-n2").gridAddress()).isNull();
        assertThat(plan.host("fs3-n2").clusterAddress()).isEqualTo("198.19.3.12");
        assertThat(plan.submitHosts(fs3, "machine")).containsExactly("fs3-head");
        assertThat(DEFAULT.withSlurmCellOf(java.util.Optional.of(plan))).as("kept as recorded, remote").isEqualTo(plan);
        assertThat(DEFAULT.withSlurmCellOf(java.util.Optional.of(DEFAULT))).isEqualTo(DEFAULT);
        assertThat(DEFAULT.withSlurmCellOf(java.util.Optional.empty())).isEqualTo(DEFAULT);

        String conf = SlurmCell.slurmConf(fs3, DIR, TestbedPlan.headAddressForNodes(fs3));
        assertThat(conf).contains("SlurmctldHost=fs3-head(198.19.3.1)\n",
                "NodeName=fs3-n1 NodeAddr=198.19.3.11 CPUs=2 RealMemory=4096 State=UNKNOWN\n",
                "NodeName=fs3-n2 NodeAddr=198.19.3.12 CPUs=2 RealMemory=4096 State=UNKNOWN\n");

        String grid = GridConfigFile.render(plan, "koala",
                c -> new RemoteHead(c, Path.of("/srv/koala-testbed").resolve(c.name()), Path.of("/var/lib/koala")));
        assertThat(grid).contains("site.fs3.manager = slurm\n",
                "site.fs3.slurm.conf = /srv/koala-testbed/fs3/slurm/slurm.conf\n", "site.fs3.ssh.host = fs3-head\n",
                "site.fs3.ssh.user = koala\n", "site.fs3.ssh.key = /var/lib/koala/testbed/ssh/koala-fs3\n",
                "site.fs3.ssh.knownHosts = /var/lib/koala/testbed/ssh/known_hosts-fs3\n",
                "site.fs3.ssh.relayHost = fs3-head\n", "site.fs3.node.count = 4\n");
        assertThat(grid).doesNotContain("site.fs3.agent.user", "site.fs3.shared", "site.fs3.sge", "site.fs3.drmaa");
    }
}
