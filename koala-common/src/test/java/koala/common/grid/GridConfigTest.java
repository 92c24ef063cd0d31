package koala.common.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridConfigTest {
    @TempDir
    Path dir;

    private Path write(String content) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, content);
        return file;
    }

    @Test
    void aRemoteStyleSiteWithItsOwnSgeInstallationAndANativeSpecWithCommas() throws Exception {
        GridConfig grid = GridConfig.load(write("""
                grid.sites = das4-vu , das4-uva
                site.das4-vu.sge.root = /cm/shared/apps/sge/6.2u5
                site.das4-vu.sge.cell = default
                site.das4-vu.sge.bin = /cm/shared/apps/sge/6.2u5/bin/lx26-amd64
                site.das4-vu.node.nativeSpec = -l exclusive=true,h_rt=900
                site.das4-vu.node.count = 74
                site.das4-vu.drmaa.preload =
                site.das4-uva.sge.cell = uva
                """));

        SiteConfig vu = grid.site("das4-vu");
        assertThat(vu.cell()).isEqualTo(new CellEnvironment(Path.of("/cm/shared/apps/sge/6.2u5"), "default", 6444, 6445,
                Path.of("/cm/shared/apps/sge/6.2u5/bin/lx26-amd64")));
        assertThat(vu.nodeNativeSpec()).isEqualTo("-l exclusive=true,h_rt=900");
        assertThat(vu.nodes()).isEqualTo(74);
        assertThat(vu.drmaa().preload()).isEmpty();
        assertThat(vu.agentPort()).isZero();
        assertThat(grid.site("das4-uva").drmaa()).isEqualTo(DrmaaInstall.debian());
    }

    @Test
    void errorsNameTheFileAndTheKey() throws Exception {
        Path file = write("grid.sites = fs0\nsite.fs0.sge.cell = fs0\nsite.fs0.sge.qmasterPort = 70000\n");
        assertThatThrownBy(() -> GridConfig.load(file))
                .hasMessage(file + ": site.fs0.sge.qmasterPort = 70000: a port is 0..65535");

        Path noCell = write("grid.sites = fs0\n");
        assertThatThrownBy(() -> GridConfig.load(noCell)).hasMessage(noCell + ": site.fs0.sge.cell: missing");

        Path notNumber = write("grid.sites = fs0\nsite.fs0.sge.cell = fs0\nsite.fs0.node.count = many\n");
        assertThatThrownBy(() -> GridConfig.load(notNumber))
                .hasMessage(notNumber + ": site.fs0.node.count = 'many': not a whole number");

        Path empty = write("# nothing\n");
        assertThatThrownBy(() -> GridConfig.load(empty)).hasMessage(empty + ": grid.sites: no sites listed");

        assertThatThrownBy(() -> GridConfig.load(dir.resolve("absent.properties")))
                .hasMessageContaining("no grid configuration here");
    }

    @Test
    void anUnknownSiteListsTheKnownOnes() throws Exception {
        GridConfig grid = GridConfig.load(write("grid.sites = fs0, fs1\nsite.fs0.sge.cell = a\nsite.fs1.sge.cell = b\n"));
        assertThatThrownBy(() -> grid.site("fs9")).hasMessageEndingWith("no site 'fs9' (sites: fs0, fs1)");
    }

    @Test
    void nodeCountsInTheOrderOfGridSitesWithTheDefaultOfOne() throws Exception {
        GridConfig grid = GridConfig.load(write("""
                grid.sites = fs2, fs0, fs1
                site.fs0.sge.cell = fs0
                site.fs0.node.count = 16
                site.fs1.sge.cell = fs1
                site.fs2.sge.cell = fs2
                site.fs2.node.count = 8
                """));
        assertThat(grid.nodeCounts()).containsExactly(entry("fs2", 8), entry("fs0", 16), entry("fs1", 1));
    }
}
