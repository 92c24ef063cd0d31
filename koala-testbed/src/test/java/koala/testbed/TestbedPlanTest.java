package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestbedPlanTest {
    private static final TestbedPlan DEFAULT = TestbedPlan.of(null, List.of(), 1, null);

    @Test
    void defaultIsThreeCellsLikeDas4WithTheFirstTheLargestAndTheThirdRemote() {
        assertThat(DEFAULT.cells()).containsExactly(
                new CellPlan("fs0", 0, 16, 1, 6460, 6461, false),
                new CellPlan("fs1", 1, 8, 1, 6462, 6463, false),
                new CellPlan("fs2", 2, 8, 1, 6464, 6465, true));
    }

    @Test
    void nodesAloneDecideTheNumberOfCells() {
        assertThat(TestbedPlan.of(null, List.of(4, 2), 1, null).cells()).extracting(CellPlan::nodes).containsExactly(4, 2);
        assertThat(TestbedPlan.of(null, List.of(4, 2), 1, null).cells()).noneMatch(CellPlan::remote);
        assertThat(TestbedPlan.of(5, List.of(), 2, Set.of()).cells()).extracting(CellPlan::slots)
                .containsExactly(32, 16, 16, 16, 16);
    }

    @Test
    void inconsistentOrOutOfRangeRequestsAreRefusedWithTheOption() {
        assertThatThrownBy(() -> TestbedPlan.of(2, List.of(8, 8, 8), 1, null)).hasMessage("--nodes gives 3 sizes for 2 clusters");
        assertThatThrownBy(() -> TestbedPlan.of(0, List.of(), 1, null)).hasMessage("--clusters 0: choose 1..16");
        assertThatThrownBy(() -> TestbedPlan.of(null, List.of(8, 0), 1, null)).hasMessage("--nodes 0 for fs1: choose 1..240");
        assertThatThrownBy(() -> TestbedPlan.of(null, List.of(8), 1, Set.of("fs3"))).hasMessage("--remote fs3: no such cell (fs0..fs0)");
        assertThatThrownBy(() -> TestbedPlan.of(null, List.of(8), 0, null)).hasMessage("--slots-per-node 0: choose 1..64");
    }

    @Test
    void everyHostHasItsOwnNameAndAddressAndRemoteNodesArePrivate() {
        List<HostPlan> hosts = DEFAULT.hosts();
        assertThat(hosts).hasSize(3 + 32);
        assertThat(hosts.get(0)).isEqualTo(new HostPlan("fs0-head", "fs0", HostPlan.Role.HEAD, "198.18.0.10", null, "grid"));
        assertThat(hosts.get(2)).isEqualTo(new HostPlan("fs2-head", "fs2", HostPlan.Role.HEAD, "198.18.0.12", "198.19.2.1", "fs2"));
        assertThat(DEFAULT.host("fs0-n16")).isEqualTo(new HostPlan("fs0-n16", "fs0", HostPlan.Role.NODE, "198.18.1.26", null, "grid"));
        assertThat(DEFAULT.host("fs1-n1").gridAddress()).isEqualTo("198.18.2.11");
        assertThat(DEFAULT.host("fs2-n8")).isEqualTo(new HostPlan("fs2-n8", "fs2", HostPlan.Role.NODE, null, "198.19.2.18", "fs2"));
        assertThat(hosts).extracting(HostPlan::address).doesNotHaveDuplicates();
        assertThat(hosts).allSatisfy(h -> assertThat(h.link("koala0")).hasSizeLessThanOrEqualTo(14));
    }

    @Test
    void theGridViewKnowsTheKoalaHostAndARemoteCellsViewOnlyItsOwnHosts() {
        String grid = DEFAULT.hostsFile("grid", "vm");
        assertThat(grid).contains("198.18.0.1 vm koala-host\n", "198.18.0.12 fs2-head\n", "198.18.1.11 fs0-n1\n")
                .doesNotContain("fs2-n1");
        String fs2 = DEFAULT.hostsFile("fs2", "vm");
        assertThat(fs2).contains("198.19.2.1 fs2-head\n", "198.19.2.11 fs2-n1\n").doesNotContain("vm", "fs0", "koala-host");
        assertThat(DEFAULT.machineHosts()).contains("198.18.0.1 koala-host", "198.18.0.12 fs2-head")
                .noneMatch(l -> l.contains("fs2-n"));
    }

    /**
     * {@code --standby-host}: koala-b at 198.18.0.2, the one host in no cell but the KOALA host (198.18.0.1), last
     * in the list. No host of any plan has that address: head nodes are 198.18.0.10 to .25 (16 cells at most),
     * a local cell's nodes are on 198.18.1-16.x, a remote cell's on 198.19.x.x.
     */
    @Test
    void theStandbyHostIsKoalaBAt198_18_0_2OnTheGridsBridgeInNoCellAndOnlyWhenAsked() {
        TestbedPlan standby = DEFAULT.withStandbyHost(true);
        assertThat(DEFAULT.standbyHost()).isFalse();
        assertThat(DEFAULT.hosts()).extracting(HostPlan::name).doesNotContain("koala-b");
        assertThat(standby.hosts()).hasSize(3 + 32 + 1).startsWith(DEFAULT.hosts().toArray(HostPlan[]::new));
        assertThat(standby.hosts().get(35)).isEqualTo(new HostPlan("koala-b", null, HostPlan.Role.STANDBY,
                "198.18.0.2", null, "grid"));
        assertThat(standby.host("koala-b").address()).isEqualTo("198.18.0.2");
        assertThat(standby.host("koala-b").link("koala0")).hasSizeLessThanOrEqualTo(14);
        assertThat(standby.hosts()).extracting(HostPlan::address).doesNotHaveDuplicates().doesNotContain("198.18.0.1");

        TestbedPlan largest = TestbedPlan.of(16, java.util.Collections.nCopies(16, 240), 1, Set.of("fs3", "fs9"));
        assertThat(largest.hosts()).flatExtracting(HostPlan::gridAddress, HostPlan::clusterAddress)
                .doesNotContain("198.18.0.2");
        assertThat(largest.withStandbyHost(true).hosts()).extracting(HostPlan::gridAddress).filteredOn("198.18.0.2"::equals)
                .hasSize(1);
    }

    @Test
    void theOtherOptionsKeepTheStandbyHostAndAnUpWithoutItHasNone() {
        TestbedPlan standby = DEFAULT.withStandbyHost(true);
        assertThat(standby.withWanDelay(0).standbyHost()).isTrue();
        assertThat(standby.withStore("postgres").standbyHost()).isTrue();
        assertThat(standby.withShapes(List.of("fs0=2x4c")).standbyHost()).isTrue();
        assertThat(standby.withStore("postgres").withStandbyHost(false)).isEqualTo(DEFAULT.withStore("postgres"));
        assertThat(new TestbedPlan(DEFAULT.cells(), 5, TestbedPlan.Store.H2)).isEqualTo(DEFAULT);
    }

    /** Every host of the grid's view and the KOALA host resolve koala-b; a remote cell's view knows it no more than koala-host. */
    @Test
    void theGridsViewAndTheMachineResolveKoalaBAndARemoteCellsViewDoesNot() {
        TestbedPlan standby = DEFAULT.withStandbyHost(true);
        String grid = standby.hostsFile("grid", "vm");
        assertThat(grid).contains("198.18.0.1 vm koala-host\n", "198.18.0.2 koala-b\n", "198.18.0.10 fs0-head\n",
                "198.18.0.12 fs2-head\n", "198.18.2.18 fs1-n8\n");
        assertThat(grid).isEqualTo(DEFAULT.hostsFile("grid", "vm") + "198.18.0.2 koala-b\n");
        assertThat(standby.hostsFile("fs2", "vm")).isEqualTo(DEFAULT.hostsFile("fs2", "vm")).doesNotContain("koala-b");
        assertThat(standby.machineHosts()).containsSequence("198.18.0.2 koala-b").contains("198.18.0.1 koala-host")
                .hasSize(DEFAULT.machineHosts().size() + 1);
        assertThat(DEFAULT.machineHosts()).noneMatch(l -> l.contains("koala-b"));
    }

    @Test
    void koalaBSubmitsToEveryLocalCellAndARemoteCellTakesJobsFromItsHeadNodeAlone() {
        TestbedPlan standby = DEFAULT.withStandbyHost(true);
        assertThat(DEFAULT.submitHosts(DEFAULT.cell("fs0"), "vm")).containsExactly("fs0-head", "vm");
        assertThat(standby.submitHosts(standby.cell("fs0"), "vm")).containsExactly("fs0-head", "vm", "koala-b");
        assertThat(standby.submitHosts(standby.cell("fs1"), "vm")).containsExactly("fs1-head", "vm", "koala-b");
        assertThat(standby.submitHosts(standby.cell("fs2"), "vm")).containsExactly("fs2-head");
        assertThat(DEFAULT.submitHosts(DEFAULT.cell("fs2"), "vm")).containsExactly("fs2-head");
    }

    /** The default testbed's record is what it was before the option existed; one with it keeps it. */
    @Test
    void theRecordKeepsTheStandbyHostAndLeavesItOutWithout(@org.junit.jupiter.api.io.TempDir java.nio.file.Path home)
            throws Exception {
        new TestbedRecord("vm", DEFAULT.withStore("postgres")).write(home);
        assertThat(java.nio.file.Files.readString(TestbedRecord.file(home))).doesNotContain("standby");

        new TestbedRecord("vm", DEFAULT.withStandbyHost(true)).write(home);
        assertThat(java.nio.file.Files.readString(TestbedRecord.file(home)))
                .contains("\"wanDelayMs\" : 5,\n    \"standbyHost\" : true\n");
        assertThat(TestbedRecord.read(home).plan()).isEqualTo(DEFAULT.withStandbyHost(true));
    }

    @Test
    void queueIsNamedAfterTheCellAndEachHostHasItsOwnGroupIds() {
        CellPlan fs1 = DEFAULT.cell("fs1");
        assertThat(fs1.queue()).isEqualTo("fs1.q");
        assertThat(fs1.gidRange()).isEqualTo("130000-130099");
        assertThat(fs1.gidRange(1)).isEqualTo("130100-130199");
        assertThat(DEFAULT.cell("fs0").gidRange(16)).isEqualTo("101600-101699");
    }

    @Test
    void theWideAreaDelayIsFiveMillisecondsEachWayByDefaultZeroForNoneAndAtMostOneSecond() {
        assertThat(DEFAULT.wanDelayMs()).isEqualTo(5);
        assertThat(DEFAULT.withWanDelay(0).wanDelayMs()).isZero();
        assertThat(DEFAULT.withWanDelay(20)).isEqualTo(new TestbedPlan(DEFAULT.cells(), 20));
        assertThatThrownBy(() -> DEFAULT.withWanDelay(-1)).hasMessage("--wan-delay -1: choose 0..1000 (ms)");
        assertThatThrownBy(() -> DEFAULT.withWanDelay(1001)).hasMessage("--wan-delay 1001: choose 0..1000 (ms)");
    }

    @Test
    void theStoreIsH2ByDefaultAndPostgresWhenAskedAndTheOtherOptionsKeepIt() {
        assertThat(DEFAULT.store()).isEqualTo(TestbedPlan.Store.H2);
        assertThat(DEFAULT.withStore("h2").store()).isEqualTo(TestbedPlan.Store.H2);
        assertThat(DEFAULT.withStore("postgres").store()).isEqualTo(TestbedPlan.Store.POSTGRES);
        assertThat(DEFAULT.withStore(" PostgreSQL ").store()).isEqualTo(TestbedPlan.Store.POSTGRES);
        assertThat(DEFAULT.withStore("H2")).isEqualTo(DEFAULT);
        assertThat(DEFAULT.withStore("postgres")).isEqualTo(new TestbedPlan(DEFAULT.cells(), 5, TestbedPlan.Store.POSTGRES));
        assertThat(TestbedPlan.Store.POSTGRES.option()).isEqualTo("postgres");
        assertThatThrownBy(() -> DEFAULT.withStore("mysql")).hasMessage("--store mysql: choose h2 or postgres");
        assertThatThrownBy(() -> DEFAULT.withStore("")).hasMessage("--store : choose h2 or postgres");

        TestbedPlan postgres = DEFAULT.withStore("postgres");
        assertThat(postgres.withWanDelay(20).store()).isEqualTo(TestbedPlan.Store.POSTGRES);
        assertThat(postgres.withShapes(List.of("fs0=2x4c")).store()).isEqualTo(TestbedPlan.Store.POSTGRES);
        assertThat(postgres.withWanDelay(20).wanDelayMs()).isEqualTo(20);
    }

    /**
     * The record says {@code "store": "postgres"} when the plan asks for PostgreSQL, and nothing for H2: the
     * default testbed's record is what it was before the store existed, and one without it reads as H2.
     */
    @Test
    void theRecordKeepsAPostgresStoreAndLeavesH2Out(@org.junit.jupiter.api.io.TempDir java.nio.file.Path home)
            throws Exception {
        new TestbedRecord("vm", DEFAULT).write(home);
        assertThat(java.nio.file.Files.readString(TestbedRecord.file(home))).doesNotContain("store")
                .contains("\"wanDelayMs\" : 5\n");
        assertThat(TestbedRecord.read(home).plan()).isEqualTo(DEFAULT);

        new TestbedRecord("vm", DEFAULT.withStore("postgres")).write(home);
        assertThat(java.nio.file.Files.readString(TestbedRecord.file(home)))
                .contains("\"wanDelayMs\" : 5,\n    \"store\" : \"postgres\"\n");
        assertThat(TestbedRecord.read(home).plan().store()).isEqualTo(TestbedPlan.Store.POSTGRES);
        assertThat(TestbedRecord.read(home).plan()).isEqualTo(DEFAULT.withStore("postgres"));
    }

    @Test
    void aRecordWrittenBeforeTheDelayExistedReadsAsNoDelayAndANewOneKeepsIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path home)
            throws Exception {
        java.nio.file.Path file = TestbedRecord.file(home);
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, """
                {"host": "vm", "plan": {"cells": [{"name": "fs0", "index": 0, "nodes": 2, "slotsPerNode": 1,
                  "qmasterPort": 6460, "execdPort": 6461, "remote": false}]}}
                """);
        assertThat(TestbedRecord.read(home).plan().wanDelayMs()).isZero();
        assertThat(TestbedRecord.read(home).plan().store()).isEqualTo(TestbedPlan.Store.H2);
        new TestbedRecord("vm", DEFAULT.withWanDelay(20)).write(home);
        assertThat(TestbedRecord.read(home).plan().wanDelayMs()).isEqualTo(20);
    }
}
