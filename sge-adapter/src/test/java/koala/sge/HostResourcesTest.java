package koala.sge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;
import koala.api.site.HostResources.MemorySource;
import org.junit.jupiter.api.Test;

/**
 * Each host's resources from real output of the testbed's cell fs0 ({@code qhost -F -q -xml},
 * {@code qstat -f -r -xml -u '*'}): plain as by default, and shaped with
 * {@code testbed up --shape fs0=12x4c/8G+4x16c/64G/2gpu --shape fs1=8x8c/16G} while one job claiming
 * {@code -l h_vmem=2G,gpu=1} ran on fs0-n13.
 */
class HostResourcesTest {
    private static HostResources host(List<HostInfo> hosts, String name) {
        return hosts.stream().filter(h -> h.name().equals(name)).findFirst().orElseThrow().resources();
    }

    @Test
    void aPlainHostOffersItsQueueSlotsAndItsPhysicalMemoryWhichNothingBooks() throws IOException {
        List<HostInfo> hosts = QhostXml.parse(QstatXmlTest.capture("qhost-F-q-default.xml"));
        assertThat(hosts).hasSize(16);
        assertThat(host(hosts, "fs0-n1")).isEqualTo(new HostResources(1, 1, 24105L, 22739L, MemorySource.LOAD, 0, 0));
        assertThat(hosts.get(0).processors()).isEqualTo(2);
    }

    @Test
    void aShapedHostOffersItsSlotsItsConsumableMemoryAndGpusAndWhatAJobHoldsIsNotFree() throws IOException {
        QstatXml.Result qstat = QstatXml.parse(QstatXmlTest.capture("qstat-f-r-fs0-shaped-one-job.xml"), j -> false);
        assertThat(qstat.held()).containsExactly(Map.entry("fs0-n13", new QhostXml.Held(2048, 1)));
        List<HostInfo> hosts = QhostXml.parse(QstatXmlTest.capture("qhost-F-q-fs0-shaped-one-job.xml"), qstat.held());
        assertThat(host(hosts, "fs0-n1")).isEqualTo(new HostResources(4, 4, 8192L, 8192L, MemorySource.CONSUMABLE, 0, 0));
        assertThat(host(hosts, "fs0-n12")).isEqualTo(host(hosts, "fs0-n1"));
        assertThat(host(hosts, "fs0-n13")).isEqualTo(new HostResources(16, 15, 65536L, 63488L, MemorySource.CONSUMABLE, 2, 1));
        assertThat(host(hosts, "fs0-n16")).isEqualTo(new HostResources(16, 16, 65536L, 65536L, MemorySource.CONSUMABLE, 2, 2));
        assertThat(host(hosts, "fs0-n16").defaultGpuDevices()).containsExactly(0, 1);
    }

    /**
     * Real output of fs0 shaped with {@code --shape fs0=2x4c/8G+2x16c/64G/2gpu} while a job of
     * {@code -pe mpi 3 -l gpu=1,h_vmem=256M} ran with one slot on fs0-n3 and two on fs0-n4, its master
     * task on fs0-n4 (and a job of {@code -pe smp 2 -l h_vmem=1G} on fs0-n3). SGE booked the GPU on
     * fs0-n4 alone ({@code hc:gpu} 2 on n3, 1 on n4) and {@code h_vmem} per slot on each host
     * (n3: 64G - 2G - 256M = 61.75G left; n4: 64G - 512M = 63.5G).
     */
    @Test
    void aGpuJobOnSeveralHostsHoldsItsGpuOnItsMastersHostAlone() throws IOException {
        QstatXml.Result qstat = QstatXml.parse(QstatXmlTest.capture("qstat-f-r-fs0-shaped-gpu-job-on-two-hosts.xml"),
                j -> false);
        Map<String, String> masters = QstatXml.masters(
                QstatXmlTest.capture("qstat-f-r-g-t-fs0-shaped-gpu-job-on-two-hosts.xml"));

        assertThat(qstat.spread()).containsExactly(Map.entry("2923", 1));
        assertThat(masters).containsEntry("2923", "fs0-n4").containsEntry("2917", "fs0-n3");
        List<HostInfo> hosts = QhostXml.parse(QstatXmlTest.capture("qhost-F-q-fs0-shaped-gpu-job-on-two-hosts.xml"),
                qstat.held(masters));
        assertThat(host(hosts, "fs0-n3")).extracting(HostResources::memoryMib, HostResources::memoryFreeMib,
                HostResources::gpus, HostResources::gpusFree).containsExactly(65536L, 63232L, 2, 2);
        assertThat(host(hosts, "fs0-n4")).extracting(HostResources::memoryMib, HostResources::memoryFreeMib,
                HostResources::gpus, HostResources::gpusFree).containsExactly(65536L, 65024L, 2, 1);
    }

    /** Before its master is known a spread job's GPU is held on none of its hosts, never on each (n3 read 3 GPUs so). */
    @Test
    void aSpreadJobsGpuIsNeverCountedOnEachOfItsHosts() throws IOException {
        QstatXml.Result qstat = QstatXml.parse(QstatXmlTest.capture("qstat-f-r-fs0-shaped-gpu-job-on-two-hosts.xml"),
                j -> false);

        assertThat(qstat.held().get("fs0-n3")).isEqualTo(new QhostXml.Held(2048 + 256, 0));
        assertThat(qstat.held().get("fs0-n4")).isEqualTo(new QhostXml.Held(512, 0));
        assertThat(qstat.held(Map.of()).get("fs0-n3").gpus()).isZero();
    }

    @Test
    void withoutWhatJobsHoldTheCapacityOfABusyConsumableWouldLookSmaller() throws IOException {
        List<HostInfo> hosts = QhostXml.parse(QstatXmlTest.capture("qhost-F-q-fs0-shaped-one-job.xml"));
        assertThat(host(hosts, "fs0-n13")).extracting(HostResources::memoryMib, HostResources::gpus)
                .containsExactly(63488L, 1);
    }

    @Test
    void anotherCellsShapeReadsAlike() throws IOException {
        List<HostInfo> hosts = QhostXml.parse(QstatXmlTest.capture("qhost-F-q-fs1-shaped.xml"));
        assertThat(hosts).hasSize(8).allSatisfy(h -> assertThat(h.resources())
                .isEqualTo(new HostResources(8, 8, 16384L, 16384L, MemorySource.CONSUMABLE, 0, 0)));
    }

    @Test
    void aDisabledQueueInstanceOffersNoFreeSlotsButStillCounts() {
        String xml = "<qhost><host name='n1'><resourcevalue name='slots' dominance='hc'>4.000000</resourcevalue>"
                + "<queue name='q'><queuevalue qname='q' name='slots_used'>0</queuevalue>"
                + "<queuevalue qname='q' name='slots'>4</queuevalue><queuevalue qname='q' name='slots_resv'>0</queuevalue>"
                + "<queuevalue qname='q' name='state_string'>d</queuevalue></queue></host></qhost>";
        assertThat(QhostXml.parse(xml).get(0).resources())
                .isEqualTo(new HostResources(4, 0, null, null, MemorySource.UNKNOWN, 0, 0));
    }

    @Test
    void memoryValuesInSgesUnits() {
        assertThat(SgeMemory.mib("23.540G")).isEqualTo(24105L);
        assertThat(SgeMemory.mib("8.000G")).isEqualTo(8192L);
        assertThat(SgeMemory.mib("65536M")).isEqualTo(65536L);
        assertThat(SgeMemory.mib("2048K")).isEqualTo(2L);
        assertThat(SgeMemory.mib("1g")).isEqualTo(954L);
        assertThat(SgeMemory.mib("1048576")).isEqualTo(1L);
        assertThat(SgeMemory.mib("-")).isNull();
        assertThat(SgeMemory.mib("INFINITY")).isNull();
        assertThatThrownBy(() -> SgeMemory.mib("4 GB")).hasMessage("not an SGE memory value: '4 GB'");
    }
}
