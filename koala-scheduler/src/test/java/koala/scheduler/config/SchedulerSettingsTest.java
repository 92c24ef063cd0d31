package koala.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code scheduler.*} keys: defaults, and values refused at start with the file and the key. */
class SchedulerSettingsTest {
    @TempDir
    Path dir;

    private SchedulerSettings settings(String extra) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n" + extra);
        return SchedulerSettings.from(GridConfig.load(file), dir);
    }

    @Test
    void defaultsWhenNothingIsSet() throws Exception {
        SchedulerSettings s = settings("");

        assertThat(s.port()).isEqualTo(7400);
        assertThat(s.defaultPolicy()).isEqualTo("worst-fit");
        assertThat(s.placementEvery()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.maxPlaceTries()).isEqualTo(150);
        assertThat(s.database()).isEqualTo(dir.resolve("scheduler").resolve("koala"));
        assertThat(s.accounting()).isEqualTo(dir.resolve("accounting.jsonl"));
    }

    @Test
    void theAccountingFileIsWhereTheAdminSays() throws Exception {
        assertThat(settings("scheduler.accounting = /var/log/koala/usage.jsonl\n").accounting())
                .isEqualTo(Path.of("/var/log/koala/usage.jsonl"));
        assertThatThrownBy(() -> settings("scheduler.accounting = usage.jsonl\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("grid.properties") + ": scheduler.accounting = usage.jsonl: must be the "
                        + "absolute path of a file");
    }

    @Test
    void aPlacementPolicyIsReadWithoutRegardToCaseOrBlanks() throws Exception {
        assertThat(settings("scheduler.placement = Close-To-Files \n").defaultPolicy()).isEqualTo("close-to-files");
    }

    @Test
    void anUnknownPlacementPolicyIsRefusedAtStartWithTheFileTheKeyAndTheKnownNames() {
        assertThatThrownBy(() -> settings("scheduler.placement = best-fit\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("grid.properties") + ": scheduler.placement = best-fit: not a placement "
                        + "policy; known: worst-fit, close-to-files, cluster-minimization, flexible-cluster-minimization");
    }

    /**
     * What a reload takes of new settings is what the catalogue calls live: each {@code scheduler.*}
     * key these settings read, changed alone, changes {@code withLive} exactly when the key is live.
     */
    @Test
    void aReloadTakesTheLiveSettingsAndOnlyThem() throws Exception {
        SchedulerSettings started = settings("");
        java.util.Map<String, String> changed = new java.util.LinkedHashMap<>();
        changed.put("scheduler.port", "7500");
        changed.put("scheduler.placementInterval", "5");
        changed.put("scheduler.placementTries", "20");
        changed.put("scheduler.claimTimeout", "90");
        changed.put("scheduler.claimFailures", "5");
        changed.put("scheduler.placement", "cluster-minimization");
        changed.put("scheduler.kisInterval", "4");
        changed.put("scheduler.nodeGiveUp", "100");
        changed.put("scheduler.database", "/srv/koala/db");
        changed.put("scheduler.maxQueuedPerUser", "10");
        changed.put("scheduler.keepEnded", "60");
        changed.put("scheduler.retention", "86400");
        changed.put("scheduler.accounting", "/srv/koala/usage.jsonl");
        java.util.Map<String, Boolean> live = new java.util.TreeMap<>();
        java.util.Map<String, Boolean> catalogue = new java.util.TreeMap<>();
        for (var e : changed.entrySet()) {
            SchedulerSettings next = settings(e.getKey() + " = " + e.getValue() + "\n");
            assertThat(next).as(e.getKey()).isNotEqualTo(started);
            live.put(e.getKey(), !started.withLive(next).equals(started));
            catalogue.put(e.getKey(), koala.grid.ConfigKeys.all().stream()
                    .filter(k -> k.pattern().equals(e.getKey())).findFirst().orElseThrow().live());
        }

        assertThat(live).isEqualTo(catalogue);
        assertThat(live).containsEntry("scheduler.placement", true).containsEntry("scheduler.port", false);
    }
}
