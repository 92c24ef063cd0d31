package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Unequal hosts: the option's text, the plan, and the qconf changes a shape makes on a cell. */
class HostShapeTest {
    private static final TestbedPlan DEFAULT = TestbedPlan.of(null, List.of(), 1, null);
    private static final TestbedPlan SHAPED = DEFAULT.withShapes(List.of("fs0=12x4c/8G+4x16c/64G/2gpu", "fs1=8x8c/16G"));

    static String capture(String name) throws IOException {
        try (InputStream in = HostShapeTest.class.getResourceAsStream("/captures/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void groupsFillTheCellsNodesInOrderAndTheRestStayAsSlotsPerNodeSays() {
        CellPlan fs0 = SHAPED.cell("fs0");
        assertThat(fs0.shape()).containsExactly(new HostShape(12, 4, 8192L, 0), new HostShape(4, 16, 65536L, 2));
        assertThat(fs0.shapeOf(12)).isEqualTo(new HostShape(12, 4, 8192L, 0));
        assertThat(fs0.shapeOf(13)).isEqualTo(new HostShape(4, 16, 65536L, 2));
        assertThat(fs0.slots()).isEqualTo(12 * 4 + 4 * 16);
        CellPlan partly = DEFAULT.withShapes(List.of("fs1=2x8c/2gpu")).cell("fs1");
        assertThat(partly.shapeOf(2)).isEqualTo(new HostShape(2, 8, null, 2));
        assertThat(partly.shapeOf(3)).isNull();
        assertThat(partly.slotsOf(3)).isEqualTo(1);
        assertThat(partly.slots()).isEqualTo(2 * 8 + 6);
        assertThat(SHAPED.cell("fs2").shaped()).isFalse();
        assertThat(DEFAULT.withShapes(List.of())).isEqualTo(DEFAULT);
    }

    @Test
    void partsComeInAnyOrderWithBinaryUnits() {
        assertThat(HostShape.parseGroups("1x512M/2gpu/3c")).containsExactly(new HostShape(1, 3, 512L, 2));
        assertThat(HostShape.parseGroups("2x1c/1T")).containsExactly(new HostShape(2, 1, 1024L * 1024, 0));
    }

    @Test
    void badShapesAreRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> DEFAULT.withShapes(List.of("fs0=12x4c/8G+8x16c"))).hasMessage(
                "--shape fs0: 20 hosts in its groups; fs0 has 16 compute nodes (--nodes)");
        assertThatThrownBy(() -> DEFAULT.withShapes(List.of("fs5=1x4c"))).hasMessage("--shape fs5: no such cell (fs0..fs2)");
        assertThatThrownBy(() -> DEFAULT.withShapes(List.of("fs0=1x4c", "fs0=1x2c"))).hasMessage(
                "--shape fs0: given twice; join its groups with '+'");
        assertThatThrownBy(() -> DEFAULT.withShapes(List.of("4x4c"))).hasMessageStartingWith("--shape '4x4c': write CELL=");
        assertThatThrownBy(() -> HostShape.parseGroups("4x8G")).hasMessage("host group '4x8G': how many cores? (e.g. 4c)");
        assertThatThrownBy(() -> HostShape.parseGroups("4x4c/8 GB")).hasMessage("host group '4x4c/8 GB': '8 GB' is none "
                + "of Nc (cores), a memory such as 8G or 512M, Ngpu; each at most once");
        assertThatThrownBy(() -> HostShape.parseGroups("4x4c/4c")).hasMessageContaining("'4c' is none of");
        assertThatThrownBy(() -> HostShape.parseGroups("4c")).hasMessageStartingWith("host group '4c': write COUNTx");
        assertThatThrownBy(() -> HostShape.parseGroups("0x4c")).hasMessageStartingWith("host group 0x4c/nullM/0gpu: choose");
        assertThatThrownBy(() -> HostShape.parseGroups("1x4c/17gpu")).hasMessageContaining("0..16 GPUs");
        assertThatThrownBy(() -> HostShape.parseGroups("1x4c+")).hasMessageStartingWith("host group '': write");
    }

    @Test
    void eachShapedHostDeclaresItsSlotsMemoryAndGpusAndTheOthersStayAsToday() {
        CellPlan fs0 = SHAPED.cell("fs0");
        assertThat(SgeCell.complexValues(fs0, 1)).isEqualTo("exclusive=true,h_vmem=8192M,slots=4");
        assertThat(SgeCell.complexValues(fs0, 16)).isEqualTo("exclusive=true,gpu=2,h_vmem=65536M,slots=16");
        assertThat(SgeCell.complexValues(DEFAULT.cell("fs0"), 1)).isEqualTo("NONE");
        assertThat(SgeCell.complexValues(TestbedPlan.of(null, List.of(), 4, null).cell("fs0"), 1)).isEqualTo("exclusive=true");
        assertThat(SgeCell.complexValues(DEFAULT.withShapes(List.of("fs1=1x1c/1gpu")).cell("fs1"), 1)).isEqualTo("gpu=1,slots=1");
        assertThat(SgeCell.needsExclusive(fs0)).isTrue();
        assertThat(SgeCell.needsExclusive(DEFAULT.cell("fs0"))).isFalse();
    }

    @Test
    void theQueueGivesShapedHostsTheirSlotsInSgesHostSpecificForm() {
        assertThat(SgeCell.queueSlots(SHAPED.cell("fs1")))
                .isEqualTo("1,[fs1-n1=8],[fs1-n2=8],[fs1-n3=8],[fs1-n4=8],[fs1-n5=8],[fs1-n6=8],[fs1-n7=8],[fs1-n8=8]");
        assertThat(SgeCell.queueSlots(DEFAULT.withShapes(List.of("fs0=2x1c/4G+1x2c")).cell("fs0"))).isEqualTo("1,[fs0-n3=2]");
        assertThat(SgeCell.queueSlots(DEFAULT.cell("fs0"))).isEqualTo("1");
    }

    @Test
    void qconfsOwnSpellingAndOrderCountAsTheSame() {
        assertThat(SgeCell.sameComplexValues("exclusive=TRUE,gpu=2,h_vmem=64.000G,slots=16",
                "exclusive=true,gpu=2,h_vmem=65536M,slots=16")).isTrue();
        assertThat(SgeCell.sameComplexValues("NONE", "NONE")).isTrue();
        assertThat(SgeCell.sameComplexValues("exclusive=TRUE", "NONE")).isFalse();
        assertThat(SgeCell.sameComplexValues("h_vmem=8G,slots=4", "h_vmem=8192M,slots=8")).isFalse();
        assertThat(SgeCell.sameQueueSlots("1,[fs0-n14=16],[fs0-n13=16]", "1,[fs0-n13=16],[fs0-n14=16]")).isTrue();
        assertThat(SgeCell.sameQueueSlots("1,[fs0-n13=16]", "1")).isFalse();
        assertThat(SgeCell.sameQueueSlots("1", "1")).isTrue();
    }

    @Test
    void continuedLinesOfQconfAreJoined() throws IOException {
        String queue = "hostlist              @allhosts fs0-n1 \\\n                      fs0-n2\nslots                 1,[fs0-n1=4], \\\n"
                + "                      [fs0-n2=4]\n";
        String joined = SgeCell.joinLines(queue);
        assertThat(SgeCell.value(joined, "hostlist")).isEqualTo("@allhosts fs0-n1  fs0-n2");
        assertThat(SgeCell.sameQueueSlots(SgeCell.value(joined, "slots"), "1,[fs0-n1=4],[fs0-n2=4]")).isTrue();
        assertThat(SgeCell.value(SgeCell.joinLines(capture("qconf-sq-fs1-default.txt")), "slots")).isEqualTo("1");
    }

    @Test
    void aShapedCellMakesHvmemConsumableAndAddsGpuAndTheDefaultPutsSgesOwnTableBack() throws IOException {
        String sgeOwn = capture("qconf-sc-default.txt");
        SgeCell.Complexes shapedCell = SgeCell.Complexes.of(SHAPED.cell("fs0"));
        SgeCell.Complexes plainCell = SgeCell.Complexes.of(DEFAULT.cell("fs0"));
        assertThat(shapedCell).isEqualTo(new SgeCell.Complexes(true, true));
        assertThat(plainCell).isEqualTo(new SgeCell.Complexes(false, false));
        assertThat(SgeCell.complexTable(sgeOwn, plainCell, true)).as("the default cell is left as it is").isNull();
        assertThat(SgeCell.complexTable(sgeOwn, plainCell, false)).isNull();

        String shaped = SgeCell.complexTable(sgeOwn, shapedCell, true);
        assertThat(shaped).contains("h_vmem h_vmem MEMORY <= YES YES 0 0\n", SgeCell.GPU_COMPLEX + "\n",
                SgeCell.EXCLUSIVE_COMPLEX + "\n").doesNotContain("h_vmem              h_vmem     MEMORY    <=    YES         NO");
        assertThat(shaped.lines().count()).isEqualTo(sgeOwn.lines().count() + 2);
        assertThat(SgeCell.complexTable(shaped, shapedCell, false)).as("removing: nothing to remove").isNull();

        // as qconf -sc showed it on fs0 after up --shape: the same entries, in SGE's order and spacing
        String shown = capture("qconf-sc-shaped.txt");
        assertThat(SgeCell.complexTable(shown, shapedCell, true)).as("a shaped cell is left as it is").isNull();
        assertThat(SgeCell.complexTable(shown, plainCell, true)).as("nothing is added for the default").isNull();
        String back = SgeCell.complexTable(shown, plainCell, false);
        assertThat(back).contains("h_vmem h_vmem MEMORY <= YES NO 0 0\n").doesNotContain("gpu ", "exclusive ");
        assertThat(back.lines().count()).isEqualTo(sgeOwn.lines().count());
        assertThat(SgeCell.complexTable(back, plainCell, false)).isNull();
    }

    @Test
    void qconfShowsWhatTheShapedHostAndQueueWereGiven() throws IOException {
        String host = SgeCell.joinLines(capture("qconf-se-fs0-n13-shaped.txt"));
        assertThat(SgeCell.sameComplexValues(SgeCell.value(host, "complex_values"), SgeCell.complexValues(SHAPED.cell("fs0"), 13)))
                .isTrue();
        String queue = SgeCell.joinLines(capture("qconf-sq-fs0-shaped.txt"));
        assertThat(SgeCell.sameQueueSlots(SgeCell.value(queue, "slots"), SgeCell.queueSlots(SHAPED.cell("fs0")))).isTrue();
        assertThat(SgeCell.sameQueueSlots(SgeCell.value(queue, "slots"), SgeCell.queueSlots(DEFAULT.cell("fs0")))).isFalse();
    }

    @Test
    void aRecordWrittenBeforeShapesReadsAsHostsAllAlike() throws IOException {
        String json = """
                {"host": "vm", "plan": {"cells": [{"name": "fs0", "index": 0, "nodes": 2, "slotsPerNode": 1,
                 "qmasterPort": 6460, "execdPort": 6461, "remote": false}], "wanDelayMs": 5}}""";
        TestbedRecord record = koala.common.json.Json.mapper().readValue(json, TestbedRecord.class);
        assertThat(record.cells()).containsExactly(new CellPlan("fs0", 0, 2, 1, 6460, 6461, false));
        String shaped = koala.common.json.Json.pretty(new TestbedRecord("vm", SHAPED));
        assertThat(koala.common.json.Json.mapper().readValue(shaped, TestbedRecord.class).plan()).isEqualTo(SHAPED);
        // a build that knows no shapes reads (and refuses unknown fields in) the same machine-wide record
        assertThat(koala.common.json.Json.pretty(new TestbedRecord("vm", DEFAULT))).doesNotContain("shape");
    }

    @Test
    void theGridConfigurationSaysWhichHostsAreUnequalAndTheDefaultOneIsUnchanged() {
        String shaped = GridConfigFile.render(SHAPED, "koala", c -> new RemoteHead(c, java.nio.file.Path.of("/srv/x"),
                java.nio.file.Path.of("/var/lib/koala")));
        assertThat(shaped).contains("# unequal hosts (their complex_values, which the site agent reads with qhost -F): "
                + "12 hosts of 4 cores, 8 GiB; 4 hosts of 16 cores, 64 GiB, 2 GPUs\n");
        String plain = GridConfigFile.render(DEFAULT, "koala", c -> new RemoteHead(c, java.nio.file.Path.of("/srv/x"),
                java.nio.file.Path.of("/var/lib/koala")));
        assertThat(plain).doesNotContain("unequal");
    }
}
