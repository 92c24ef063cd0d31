package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import koala.provisioning.SettingsLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An admin's edit of the grid configuration reaches a running instance; a bad edit is refused. */
class SiteSettingsTest {
    private static final String GRID = "grid.sites = fs0, fs1\nsite.fs0.sge.cell = fs0\nsite.fs1.sge.cell = fs1\n";

    @TempDir
    Path dir;

    @Test
    void theHomeSitesDefaultsApplyUnderTheJdfAndAnEditTakesEffectAtTheNextReload() throws IOException {
        Path grid = write(GRID + "site.fs1.provisioning.tIdle = 90\nsite.fs1.provisioning.fMax = 12\n", 1);
        SiteSettings settings = new SiteSettings(grid, SettingsLayer.parse(Map.of("fMax", "20", "provisioning",
                "ondemand")));
        assertThat(settings.current().describe()).contains("fMax = 20 from jdf");

        assertThat(settings.home("fs1")).hasValueSatisfying(change -> assertThat(change).contains("tIdle = 90 s"));
        assertThat(settings.current().describe()).contains("tIdle = 90 s from site fs1", "fMax = 12 from site fs1 cap "
                + "(jdf asked 20)");
        assertThat(settings.reload()).as("unchanged file").isEmpty();

        write(GRID + "site.fs1.provisioning.tIdle = 60\nsite.fs1.provisioning.fMax = 12\n", 2);
        assertThat(settings.reload()).hasValue("settings now: tIdle = 60 s from site fs1");
    }

    @Test
    void aBadValueIsRefusedWithItsKeyAndThePreviousSettingsStay() throws IOException {
        Path grid = write(GRID + "site.fs0.provisioning.uMax = 70\n", 1);
        SiteSettings settings = new SiteSettings(grid, SettingsLayer.EMPTY);
        settings.home("fs0");
        write(GRID + "site.fs0.provisioning.uMax = 170\n", 2);

        assertThat(settings.reload()).hasValueSatisfying(refusal -> assertThat(refusal)
                .contains("refused, previous settings stay").contains("site.fs0.provisioning.uMax"));
        assertThat(settings.current().describe()).contains("uMax = 70% from site fs0");
    }

    /**
     * Which sites are remote is known from the start: the master of an initial deployment says hello,
     * and is told how long to wait for a silent runner, before the runner's first reload.
     */
    @Test
    void theRemoteSitesAreKnownBeforeTheFirstReload() throws IOException {
        Path grid = write(GRID.replace("fs0, fs1", "fs0, fs1, fs2") + "site.fs2.sge.cell = fs2\n"
                + "site.fs2.ssh.host = fs2-head\nsite.fs2.ssh.user = koala\nsite.fs2.ssh.key = " + dir.resolve("key")
                + "\n", 1);
        SiteSettings settings = new SiteSettings(grid, SettingsLayer.EMPTY);

        assertThat(settings.remote("fs2")).isTrue();
        assertThat(settings.remote("fs0")).isFalse();
    }

    private Path write(String text, int version) throws IOException {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-11-21T10:00:00Z").plusSeconds(version)));
        return file;
    }
}
