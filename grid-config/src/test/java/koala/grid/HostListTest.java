package koala.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Node groups an admin declares per site: host lists, ranges and patterns, read and checked. */
class HostListTest {
    @Test
    void namesRangesAndPatterns() {
        HostList rack = HostList.parse("fs0-n1..fs0-n8, fs0-gpu*, head");

        assertThat(List.of("fs0-n1", "fs0-n8", "fs0-gpu3", "head")).allMatch(rack::matches);
        assertThat(List.of("fs0-n9", "fs0-n0", "fs0-n01", "fs1-gpu3", "head2")).noneMatch(rack::matches);
        HostList padded = HostList.parse("n01..n16");
        assertThat(padded.matches("n07")).isTrue();
        assertThat(padded.matches("n7")).isFalse();
        assertThat(padded.matches("n17")).isFalse();
    }

    @Test
    void badListsSayWhatIsWrong() {
        assertThat(HostList.problem("fs0-n8..fs0-n1")).hasValue("range 'fs0-n8..fs0-n1' ends below where it starts");
        assertThat(HostList.problem("fs0-n1..fs1-n8")).hasValue("range 'fs0-n1..fs1-n8': its ends are one name with "
                + "a number at the end, as in fs0-n1..fs0-n8");
        assertThat(HostList.problem("a,,b")).hasValue("an empty item between commas");
        assertThat(HostList.problem("a b")).hasValue("'a b' holds a space; separate hosts with ','");
    }

    @Test
    void theGridDeclaresGroupsPerSiteAndConfigCheckKnowsTheKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, """
                grid.sites = fs0, fs1
                site.fs0.sge.cell = fs0
                site.fs1.sge.cell = fs1
                site.fs0.groups.rack.r1 = fs0-n1..fs0-n4
                site.fs0.groups.rack.r2 = fs0-n5..fs0-n8
                site.fs1.groups.upgrade-domain.u1 = fs1-*
                """);
        GridConfig grid = GridConfig.load(file);

        assertThat(grid.nodeGroups("fs0")).containsOnlyKeys("rack");
        assertThat(grid.nodeGroups("fs0").get("rack")).containsOnlyKeys("r1", "r2");
        assertThat(grid.nodeGroups("fs0").get("rack").get("r2").matches("fs0-n6")).isTrue();
        assertThat(grid.groupKinds()).containsExactly("rack", "upgrade-domain");
        assertThat(grid.groupKinds()).containsExactlyInAnyOrder("rack", "upgrade-domain");
        ConfigKeys.KeyMatcher keys = ConfigKeys.forSites(List.of("fs0", "fs1"));
        assertThat(keys.match("site.fs0.groups.rack.r1")).map(m -> m.key().pattern()).hasValue("site.S.groups.K.G");
        assertThat(ValueType.HOSTS.problem("site.fs0.groups.rack.r1", "fs0-n4..fs0-n1"))
                .hasValue("site.fs0.groups.rack.r1 = 'fs0-n4..fs0-n1': range 'fs0-n4..fs0-n1' ends below where it starts");
        assertThat(keys.nearest("site.fs0.grups.rack.r1")).hasValue("site.fs0.groups.rack.r1");
    }

    @Test
    void aMalformedGroupIsAnErrorNamingTheKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, "grid.sites = fs0\nsite.fs0.sge.cell = fs0\nsite.fs0.groups.rack.r1 = a..b\n");

        assertThatThrownBy(() -> GridConfig.load(file).nodeGroups("fs0")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("site.fs0.groups.rack.r1 = 'a..b': range 'a..b': its ends are one name");
    }
}
