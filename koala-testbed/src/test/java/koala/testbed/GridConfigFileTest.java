package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import koala.common.grid.GridConfig;
import koala.common.grid.SiteConfig;
import koala.common.time.Poll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridConfigFileTest {
    @Test
    void theConfigurationTheTestbedWritesIsTheOneTheSchedulerReads(@TempDir Path dir) throws Exception {
        List<SgeCell> cells = TestbedPlan.of(null, List.of(16, 8)).cells().stream()
                .map(c -> new SgeCell(c, "vm", Poll.system())).toList();
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, GridConfigFile.render(cells, "koala"));

        GridConfig grid = GridConfig.load(file);

        assertThat(grid.sites()).extracting(SiteConfig::name).containsExactly("fs0", "fs1");
        SiteConfig fs1 = grid.site("fs1");
        assertThat(fs1.cell().variables()).containsEntry("SGE_ROOT", "/var/lib/gridengine")
                .containsEntry("SGE_CELL", "fs1").containsEntry("SGE_QMASTER_PORT", "6462")
                .containsEntry("SGE_EXECD_PORT", "6463");
        assertThat(fs1.agentUser()).isEqualTo("koala");
        assertThat(fs1.nodes()).isEqualTo(8);
        assertThat(fs1.nodeNativeSpec()).isEmpty();
        assertThat(fs1.drmaa().preload()).contains(Path.of("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"));
    }
}
