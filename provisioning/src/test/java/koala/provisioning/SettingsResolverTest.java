package koala.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Built-in defaults &lt; site fs0's configured defaults &lt; the JDF, and the site's fMax as a ceiling. */
class SettingsResolverTest {
    private static final SettingsLayer NO_SITE = SettingsLayer.EMPTY;

    @Test
    void withNothingConfiguredThePapersDefaultsApply() {
        ResolvedSettings resolved = SettingsResolver.resolve(jdf(Map.of("initialWorkers", "2")));
        assertThat(resolved.settings()).isEqualTo(new ProvisioningSettings(PolicyKind.ONDEMAND, 20, IdleTime.factor(6),
                40, 50, Duration.ofSeconds(40), 45, 2, 50, 8, 1, 0));
        assertThat(resolved.describe()).containsExactly(
                "provisioning = ondemand from default",
                "fMax = 20 from default",
                "tIdle = 6 × O_grow from default (n = 6 for ondemand)",
                "uMin = 40% from default",
                "uMax = 50% from default",
                "samplePeriod = 40 s from default",
                "orchestratorThreshold = 45 from default",
                "initialWorkers = 2 from jdf",
                "reserve = 50% from default",
                "pool = 8 idle workers from default",
                "weight = 1 from default",
                "minShare = 0 nodes from default");
    }

    @Test
    void theSiteOverridesTheDefaultsAndTheJdfOverridesTheSite() {
        SettingsLayer site = SettingsLayer.parse(Map.of("uMin", "30", "uMax", "60", "samplePeriod", "20", "tIdle", "300"));
        SettingsLayer jdf = jdf(Map.of("provisioning", "proactive", "uMax", "70", "initialWorkers", "2"));
        ResolvedSettings resolved = SettingsResolver.resolve("fs0", site, jdf);
        assertThat(resolved.settings()).isEqualTo(new ProvisioningSettings(PolicyKind.PROACTIVE, 20,
                IdleTime.fixed(Duration.ofSeconds(300)), 30, 70, Duration.ofSeconds(20), 45, 2, 50, 8, 1, 0));
        assertThat(resolved.origins().values()).extracting(Origin::label).containsExactly(
                "jdf", "default", "site fs0", "site fs0", "jdf", "site fs0", "default", "jdf", "default", "default", "default",
                "default");
    }

    @Test
    void theSitesFMaxIsACeilingTheJdfCannotExceed() {
        SettingsLayer site = SettingsLayer.EMPTY.withFMax(16);
        ResolvedSettings asksMore = SettingsResolver.resolve("fs0", site, jdf(Map.of("fMax", "30")));
        assertThat(asksMore.settings().fMax()).isEqualTo(16);
        assertThat(asksMore.origin(Setting.F_MAX).label()).isEqualTo("site fs0 cap");
        assertThat(asksMore.describe()).contains("fMax = 16 from site fs0 cap (jdf asked 30)");

        ResolvedSettings asksLess = SettingsResolver.resolve("fs0", site, jdf(Map.of("fMax", "10")));
        assertThat(asksLess.settings().fMax()).isEqualTo(10);
        assertThat(asksLess.origin(Setting.F_MAX)).isEqualTo(Origin.jdf());

        ResolvedSettings asksNothing = SettingsResolver.resolve("fs0", site, jdf(Map.of()));
        assertThat(asksNothing.settings().fMax()).isEqualTo(16);
        assertThat(asksNothing.origin(Setting.F_MAX)).isEqualTo(Origin.site("fs0"));
    }

    @Test
    void theSitesWeightAndMinShareAreCeilingsTooAJdfMayAskLess() {
        SettingsLayer site = SettingsLayer.parse(Map.of("weight", "2", "minShare", "4"));
        ResolvedSettings asksMore = SettingsResolver.resolve("fs0", site, jdf(Map.of("weight", "3.5", "minShare", "8")));
        assertThat(asksMore.settings().weight()).isEqualTo(2);
        assertThat(asksMore.settings().minShare()).isEqualTo(4);
        assertThat(asksMore.describe()).contains("weight = 2 from site fs0 cap (jdf asked 3.5)",
                "minShare = 4 nodes from site fs0 cap (jdf asked 8)");

        ResolvedSettings asksLess = SettingsResolver.resolve("fs0", site, jdf(Map.of("weight", "0.5", "minShare", "1")));
        assertThat(asksLess.describe()).contains("weight = 0.5 from jdf", "minShare = 1 node from jdf");

        ResolvedSettings asksNothing = SettingsResolver.resolve("fs0", site, jdf(Map.of()));
        assertThat(asksNothing.describe()).contains("weight = 2 from site fs0", "minShare = 4 nodes from site fs0");

        // with no site value the JDF's is taken as it is
        assertThat(SettingsResolver.resolve(jdf(Map.of("weight", "3"))).settings().weight()).isEqualTo(3);
    }

    @Test
    void aMinShareAboveFMaxIsRefusedSayingWhereBothCameFrom() {
        assertThat(SettingsResolver.check("fs0", SettingsLayer.EMPTY.withFMax(6), jdf(Map.of("minShare", "8"))))
                .extracting(SettingProblem::toString).containsExactly("minShare: 8 nodes is more than fMax (6): the "
                        + "instance could never hold it; minShare from jdf, fMax from site fs0");
    }

    @Test
    void theBuiltInFMaxIsADefaultNotACeiling() {
        ResolvedSettings resolved = SettingsResolver.resolve(jdf(Map.of("fMax", "30")));
        assertThat(resolved.settings().fMax()).isEqualTo(30);
        assertThat(resolved.origin(Setting.F_MAX)).isEqualTo(Origin.jdf());
    }

    @Test
    void theDefaultIdleFactorFollowsTheEffectivePolicy() {
        SettingsLayer proactiveSite = SettingsLayer.EMPTY.withPolicy(PolicyKind.PROACTIVE);
        ResolvedSettings proactive = SettingsResolver.resolve("fs0", proactiveSite, jdf(Map.of("initialWorkers", "2")));
        assertThat(proactive.settings().tIdle()).isEqualTo(IdleTime.factor(2));
        assertThat(proactive.describe()).contains("tIdle = 2 × O_grow from default (n = 2 for proactive)");

        ResolvedSettings onDemand = SettingsResolver.resolve("fs0", proactiveSite, jdf(Map.of("provisioning", "ondemand")));
        assertThat(onDemand.settings().tIdle()).isEqualTo(IdleTime.factor(6));

        SettingsLayer factorSite = SettingsLayer.parse(Map.of("tIdleFactor", "4"));
        ResolvedSettings siteFactor = SettingsResolver.resolve("fs1", factorSite, jdf(Map.of("provisioning", "proactive",
                "initialWorkers", "1")));
        assertThat(siteFactor.settings().tIdle()).isEqualTo(IdleTime.factor(4));
        assertThat(siteFactor.describe()).contains("tIdle = 4 × O_grow from site fs1");
    }

    @Test
    void aConflictAcrossLayersIsRefusedSayingWhereEachValueCameFrom() {
        SettingsLayer site = SettingsLayer.parse(Map.of("uMin", "60"));
        SettingsLayer jdf = jdf(Map.of("uMax", "50"));
        List<SettingProblem> problems = SettingsResolver.check("fs0", site, jdf);
        assertThat(problems).extracting(SettingProblem::toString)
                .containsExactly("uMax: 50 must be above uMin (60); uMax from jdf, uMin from site fs0");
        assertThatThrownBy(() -> SettingsResolver.resolve("fs0", site, jdf))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).isEqualTo(problems));
    }

    @Test
    void aRefusedReloadLeavesTheCallerWithItsPreviousSettings() {
        ResolvedSettings current = SettingsResolver.resolve("fs0", SettingsLayer.EMPTY.withUMin(30), jdf(Map.of()));
        SettingsLayer reloadedSite = SettingsLayer.EMPTY.withUMin(30).withUMax(20);
        assertThat(SettingsResolver.check("fs0", reloadedSite, jdf(Map.of()))).extracting(SettingProblem::toString)
                .containsExactly("uMax: 20 must be above uMin (30); uMax from site fs0, uMin from site fs0");
        // the caller applies only what resolves, so it keeps uMin 30 / uMax 50
        assertThat(current.settings().uMax()).isEqualTo(50);
    }

    @Test
    void aSiteCapBelowTheInitialWorkersIsRefused() {
        SettingsLayer site = SettingsLayer.EMPTY.withFMax(3);
        assertThat(SettingsResolver.check("fs0", site, jdf(Map.of("fMax", "30", "initialWorkers", "4"))))
                .extracting(SettingProblem::toString).containsExactly("fMax: 3 is fewer than the 4 workers the job "
                        + "starts with; fMax from site fs0 cap (jdf asked 30), initialWorkers from jdf");
    }

    @Test
    void singleValueProblemsNameTheirOneOrigin() {
        SettingsLayer site = SettingsLayer.EMPTY.withOrchestratorThreshold(0);
        assertThat(SettingsResolver.check("fs2", site, jdf(Map.of("provisioning", "proactive"))))
                .extracting(SettingProblem::toString).containsExactly(
                        "provisioning: proactive grows by the number of initial workers, and this job starts with none; "
                                + "provisioning from jdf, initialWorkers from default",
                        "orchestratorThreshold: 0 must be above 0; from site fs2");
        assertThat(SettingsResolver.check("fs2", NO_SITE, jdf(Map.of()))).isEmpty();
    }

    private static SettingsLayer jdf(Map<String, String> attributes) {
        return SettingsLayer.parse(attributes);
    }
}
