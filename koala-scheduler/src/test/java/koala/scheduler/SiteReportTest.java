package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.SiteResources;
import koala.api.scheduler.SiteStatus;
import koala.api.site.AgentHealth;
import koala.api.site.CellSnapshot;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;
import koala.api.site.HostResources.MemorySource;
import koala.api.site.QueueInstance;
import koala.common.json.Json;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.SiteView;
import koala.scheduler.kis.SiteInfo;
import org.junit.jupiter.api.Test;

/**
 * {@code koala sites} as worked examples: each site's cores, memory and GPUs are its hosts' as the
 * snapshot reports them, summed, beside its nodes. fs0 has two hosts of 4 cores and 8G and one of 16
 * cores, 64G and 2 GPUs; fs1's hosts report no resources; fs2's agent is down.
 */
class SiteReportTest {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");

    /**
     * <pre>
     * cores   4 + 4 + 16 = 24 in all; 1 + 4 + 12 = 17 free
     * memory  8192 + 8192 + 65536 = 81920 MiB in all; 2048 + 8192 + 49152 = 59392 MiB free
     * GPUs    2 in all, 1 free
     * </pre>
     */
    @Test
    void eachSitesResourcesAreItsHostsSummedAndNoneWhereNoHostReportsThem() {
        CellSnapshot fs0 = new CellSnapshot("fs0", AT, List.of(
                host("fs0-n1", new HostResources(4, 1, 8192L, 2048L, MemorySource.CONSUMABLE, 0, 0)),
                host("fs0-n2", new HostResources(4, 4, 8192L, 8192L, MemorySource.CONSUMABLE, 0, 0)),
                host("fs0-n3", new HostResources(16, 12, 65536L, 49152L, MemorySource.CONSUMABLE, 2, 1))),
                List.of(queue("fs0-n1", 4), queue("fs0-n2", 4), queue("fs0-n3", 16)), List.of());
        CellSnapshot fs1 = new CellSnapshot("fs1", AT, List.of(host("fs1-n1", null), host("fs1-n2", null)),
                List.of(queue("fs1-n1", 1), queue("fs1-n2", 1)), List.of());
        Map<String, SiteInfo> kis = Map.of("fs0", up(fs0), "fs1", up(fs1), "fs2", new SiteInfo("fs2",
                new AgentHealth("fs2", "fs2", "UP", null, Instant.EPOCH, "SGE", 0), null, "connection refused", AT));
        GridView view = new GridView(List.of(new SiteView("fs0", 24, 17), new SiteView("fs1", 2, 2)),
                FileLocations.NONE);

        List<SiteStatus> sites = SiteReport.of(List.of("fs0", "fs1", "fs2"), s -> Optional.ofNullable(kis.get(s)),
                List.of(), view);

        assertThat(sites).containsExactly(
                new SiteStatus("fs0", 24, 17, 0, 0, 0, "UP", null, AT, new SiteResources(3, 24, 17, 81920L, 59392L, 2, 1),
                        "SGE"),
                new SiteStatus("fs1", 2, 2, 0, 0, 0, "UP", null, AT, null, "SGE"),
                new SiteStatus("fs2", 0, 0, 0, 0, 0, "DOWN", "connection refused", AT, null, "SGE"));
        assertThat(Json.write(sites.get(0))).contains("\"resources\":{\"hosts\":3,\"cores\":24,\"coresFree\":17,"
                + "\"memoryMib\":81920,\"memoryFreeMib\":59392,\"gpus\":2,\"gpusFree\":1}");
        assertThat(Json.write(sites.get(1))).doesNotContain("resources");
    }

    /** A host that reports no memory (its execd never did) adds none; the others' still count. */
    @Test
    void aHostWithoutMemoryAddsNone() {
        assertThat(SiteResources.of(List.of(
                host("a", new HostResources(8, 8, null, null, MemorySource.UNKNOWN, 0, 0)),
                host("b", new HostResources(8, 2, 16384L, 4096L, MemorySource.LOAD, 0, 0)))))
                .isEqualTo(new SiteResources(2, 16, 10, 16384L, 4096L, 0, 0));
        assertThat(SiteResources.of(List.of(host("a", new HostResources(8, 8, null, null, MemorySource.UNKNOWN, 0, 0)))))
                .isEqualTo(new SiteResources(1, 8, 8, null, null, 0, 0));
    }

    private static SiteInfo up(CellSnapshot snapshot) {
        return new SiteInfo(snapshot.site(), new AgentHealth(snapshot.site(), snapshot.site(), "UP", null, Instant.EPOCH,
                "SGE", 0), snapshot, null, AT);
    }

    private static HostInfo host(String name, HostResources resources) {
        return new HostInfo(name, "lx-amd64", 4, 0.0, "8.0G", "1.0G", resources);
    }

    private static QueueInstance queue(String host, int slots) {
        return new QueueInstance("all.q@" + host, host, slots, 0, 0, true, "");
    }
}
