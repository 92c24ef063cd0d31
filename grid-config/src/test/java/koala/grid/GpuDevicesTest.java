package koala.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GPU device indices an admin declares per host ({@code site.S.gpuDevices.HOST}), read and checked. */
class GpuDevicesTest {
    @Test
    void indicesAreWholeNumbersEachOnceInTheOrderWritten() {
        assertThat(GpuDevices.parse("1,2,3")).containsExactly(1, 2, 3);
        assertThat(GpuDevices.parse(" 5 , 2 ")).containsExactly(5, 2);
        assertThat(GpuDevices.parse("0")).containsExactly(0);
    }

    @Test
    void badListsSayWhatIsWrong() {
        assertThat(GpuDevices.problem("a,b")).hasValue("'a' is not a device index (a whole number, 0 or more)");
        assertThat(GpuDevices.problem("1,-2")).hasValue("'-2' is not a device index (a whole number, 0 or more)");
        assertThat(GpuDevices.problem("1,,2")).hasValue("an empty device index (write e.g. 1,2,3)");
        assertThat(GpuDevices.problem("2,5,2")).hasValue("device 2 named twice");
        assertThat(GpuDevices.problem("")).hasValue("no device named (write e.g. 1,2,3, or leave the key out for 0..N-1)");
        assertThat(GpuDevices.problem("2,5")).isEmpty();
    }

    @Test
    void theGridDeclaresDevicesPerHostAndConfigCheckKnowsTheKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, """
                grid.sites = fs0, fs1
                site.fs0.sge.cell = fs0
                site.fs1.sge.cell = fs1
                site.fs0.gpuDevices.fs0-n16 = 1,2,3
                site.fs0.gpuDevices.gpu.example.org = 2,5
                """);
        GridConfig grid = GridConfig.load(file);

        assertThat(grid.gpuDevices("fs0")).containsOnlyKeys("fs0-n16", "gpu.example.org");
        assertThat(grid.gpuDevices("fs0").get("fs0-n16")).containsExactly(1, 2, 3);
        assertThat(grid.gpuDevices("fs0").get("gpu.example.org")).containsExactly(2, 5);
        assertThat(grid.gpuDevices("fs1")).isEmpty();
        ConfigKeys.KeyMatcher keys = ConfigKeys.forSites(List.of("fs0", "fs1"));
        assertThat(keys.match("site.fs0.gpuDevices.fs0-n16")).map(m -> m.key().pattern()).hasValue("site.S.gpuDevices.H");
        assertThat(keys.nearest("site.fs0.gpuDevice.fs0-n16")).hasValue("site.fs0.gpuDevices.fs0-n16");
        assertThat(ConfigCheck.check(file, List.of()).problems()).isEmpty();
    }

    @Test
    void aMalformedListIsAnErrorNamingTheKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, "grid.sites = fs0\nsite.fs0.sge.cell = fs0\nsite.fs0.gpuDevices.fs0-n16 = a,b\n");

        assertThatThrownBy(() -> GridConfig.load(file).gpuDevices("fs0")).isInstanceOf(ConfigException.class)
                .hasMessage(file + ": site.fs0.gpuDevices.fs0-n16 = 'a,b': 'a' is not a device index (a whole number, 0 "
                        + "or more)");
        assertThat(ConfigCheck.check(file, List.of()).problems()).map(ConfigProblem::toString)
                .singleElement().asString().contains("site.fs0.gpuDevices.fs0-n16 = 'a,b': 'a' is not a device index");
    }
}
