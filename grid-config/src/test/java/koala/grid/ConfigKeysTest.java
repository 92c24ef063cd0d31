package koala.grid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The catalogue of keys: what a key is, and the known key nearest to a typo. */
class ConfigKeysTest {
    private final ConfigKeys.KeyMatcher grid = ConfigKeys.forSites(List.of("fs0", "fs1", "das4.vu"));

    @Test
    void aTypoGetsTheNearestKnownKeyWithItsOwnSite() {
        assertThat(grid.nearest("site.fs0.sge.cel")).contains("site.fs0.sge.cell");
        assertThat(grid.nearest("site.fs1.sge.qmasterport")).contains("site.fs1.sge.qmasterPort");
        assertThat(grid.nearest("scheduler.claimTimout")).contains("scheduler.claimTimeout");
        assertThat(grid.nearest("scheduler.PlacementIntervall")).contains("scheduler.placementInterval");
        assertThat(grid.nearest("site.fs0.provisioning.fmax")).contains("site.fs0.provisioning.fMax");
        assertThat(grid.nearest("site.das4.vu.ssh.hots")).contains("site.das4.vu.ssh.host");
        assertThat(grid.nearest("file.genome.dat.sizes")).contains("file.genome.dat.size");
        assertThat(grid.nearest("scheduler.loglevel.koala.scheduler.kis")).contains("scheduler.logLevel.koala.scheduler.kis");
        assertThat(grid.nearest("scheduler.arbitration.polciy")).contains("scheduler.arbitration.policy");
    }

    /** A site not listed is still filled in as written: the key's own site is a candidate too. */
    @Test
    void aTypoUnderASiteNotListedKeepsThatSite() {
        assertThat(grid.nearest("site.fs7.sge.cel")).contains("site.fs7.sge.cell");
    }

    /**
     * At most one edit in six characters, 1 to 3: "scheduler.prot" (14 characters, 2 allowed) is 2 edits
     * from "scheduler.port", "sheduler.prot" (13, 2 allowed) is 3.
     */
    @Test
    void aKeyFarFromEveryKnownOneGetsNoSuggestion() {
        assertThat(grid.nearest("scheduler.prot")).contains("scheduler.port");
        assertThat(grid.nearest("sheduler.prot")).isEmpty();
        assertThat(grid.nearest("queue.size")).isEmpty();
        assertThat(grid.nearest("site.fs0.colour")).isEmpty();
        assertThat(grid.nearest("x")).isEmpty();
    }

    @Test
    void aKeyMatchesItsPatternWithTheSitesItNames() {
        assertThat(grid.match("site.fs1.node.count").orElseThrow().key().pattern()).isEqualTo("site.S.node.count");
        assertThat(grid.match("site.das4.vu.sge.cell").orElseThrow()).isEqualTo(
                new ConfigKeys.Match(key("site.S.sge.cell"), List.of()));
        assertThat(grid.match("bandwidth.fs0.fs1").orElseThrow().key().pattern()).isEqualTo("bandwidth.A.B");
        assertThat(grid.match("bandwidth.default").orElseThrow().key().pattern()).isEqualTo("bandwidth.default");
        assertThat(grid.match("file.genome.dat.sites").orElseThrow().key().pattern()).isEqualTo("file.F.sites");
        assertThat(grid.match("scheduler.logLevel.koala.scheduler.kis").orElseThrow().key().pattern())
                .isEqualTo("scheduler.logLevel.L");
        assertThat(grid.match("scheduler.claimTimout")).isEmpty();
        assertThat(grid.match("site.fs0.sge")).isEmpty();
    }

    @Test
    void aKeyOfASiteNotListedNamesThatSite() {
        assertThat(grid.match("site.fs3.sge.cell").orElseThrow().unlisted()).containsExactly("fs3");
        assertThat(grid.match("bandwidth.fs0.fs9").orElseThrow().unlisted()).containsExactly("fs9");
        assertThat(grid.match("bandwidth.fs8.fs9").orElseThrow().unlisted()).containsExactly("fs8", "fs9");
    }

    @Test
    void everyPatternIsUniqueAndItsTypeAndDefaultAreGiven() {
        assertThat(ConfigKeys.all()).extracting(ConfigKey::pattern).doesNotHaveDuplicates();
        assertThat(ConfigKeys.all()).allSatisfy(k -> {
            assertThat(k.defaultValue()).isNotBlank();
            assertThat(k.meaning()).isNotBlank();
        });
    }

    @Test
    void theEditDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertThat(ConfigKeys.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(ConfigKeys.distance("cel", "cell")).isEqualTo(1);
        assertThat(ConfigKeys.distance("", "abc")).isEqualTo(3);
        assertThat(ConfigKeys.distance("same", "same")).isZero();
    }

    private static ConfigKey key(String pattern) {
        return ConfigKeys.all().stream().filter(k -> k.pattern().equals(pattern)).findFirst().orElseThrow();
    }
}
