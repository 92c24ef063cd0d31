package koala.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading settings from text (a JDF's framework attributes, a site's configuration) and checking them. */
class SettingsLayerTest {

    @Test
    void readsEveryKeyAsAJdfWritesIt() {
        SettingsLayer layer = SettingsLayer.parse(map("provisioning", "OnDemand", "fMax", "20", "tIdle", "180",
                "uMin", "40", "uMax", "50.5", "samplePeriod", "40", "orchestratorThreshold", "45",
                "initialWorkers", "2", "reserve", "25", "pool", "6", "weight", "2.5", "minShare", "4"));
        assertThat(layer).isEqualTo(new SettingsLayer(PolicyKind.ONDEMAND, 20, IdleTime.fixed(Duration.ofSeconds(180)),
                40.0, 50.5, Duration.ofSeconds(40), 45.0, 2, 25.0, 6, 2.5, 4));
    }

    @Test
    void aMissingKeyIsLeftToTheLayersBelow() {
        assertThat(SettingsLayer.parse(Map.of("tIdleFactor", "2.5")))
                .isEqualTo(SettingsLayer.EMPTY.withTIdle(IdleTime.factor(2.5)));
        assertThat(SettingsLayer.parse(Map.of())).isEqualTo(SettingsLayer.EMPTY);
    }

    @Test
    void everyMalformedValueIsRefusedWithItsKeyInTheJdfCheckersWords() {
        Map<String, String> bad = map("provisioning", "elastic", "fMax", "0", "tIdle", "-1", "uMin", "101",
                "uMax", "x", "samplePeriod", "0", "orchestratorThreshold", "1e3", "initialWorkers", "two", "pool", "-1",
                "weight", "0", "minShare", "some");
        assertThatThrownBy(() -> SettingsLayer.parse(bad))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).extracting(
                        SettingProblem::toString).containsExactly(
                        "provisioning: 'elastic' is not one of: static, ondemand, proactive, reserve, pool",
                        "fMax: '0' is not a positive whole number",
                        "tIdle: '-1' is not a whole number of seconds",
                        "uMin: '101' is not a percentage (0 to 100)",
                        "uMax: 'x' is not a percentage (0 to 100)",
                        "samplePeriod: '0' is not a positive whole number of seconds",
                        "orchestratorThreshold: '1e3' is not a positive number",
                        "initialWorkers: 'two' is not a whole number",
                        "pool: '-1' is not a whole number of workers",
                        "weight: '0' is not a positive number",
                        "minShare: 'some' is not a whole number of nodes"));
    }

    @Test
    void tIdleIsGivenInSecondsOrAsAFactorNotBoth() {
        assertThat(problemsOf(Map.of("tIdle", "60", "tIdleFactor", "2"))).containsExactly(
                "tIdleFactor: give tIdle (seconds) or tIdleFactor (times the grow time), not both");
        assertThat(problemsOf(Map.of("tIdleFactor", "0"))).containsExactly("tIdleFactor: '0' is not a positive number");
    }

    @Test
    void unknownKeysAndEmptyValuesAreRefused() {
        assertThat(problemsOf(Map.of("tidle", "60", "fMax", " "))).containsExactly(
                "fMax: no value",
                "tidle: unknown setting; known: provisioning, fMax, tIdle, uMin, uMax, samplePeriod, "
                        + "orchestratorThreshold, initialWorkers, reserve, pool, weight, minShare, tIdleFactor");
    }

    @Test
    void conflictsInsideOneLayerAreRefusedToo() {
        assertThat(problemsOf(Map.of("uMin", "60", "uMax", "50"))).containsExactly("uMax: 50 must be above uMin (60)");
        assertThat(problemsOf(Map.of("uMin", "50", "uMax", "50"))).containsExactly("uMax: 50 must be above uMin (50)");
        assertThat(problemsOf(Map.of("fMax", "3", "initialWorkers", "4")))
                .containsExactly("fMax: 3 is fewer than the 4 workers the job starts with");
        assertThat(problemsOf(Map.of("provisioning", "proactive", "initialWorkers", "0"))).containsExactly(
                "provisioning: proactive grows by the number of initial workers, and this job starts with none");
        assertThat(problemsOf(Map.of("fMax", "10", "minShare", "12"))).containsExactly(
                "minShare: 12 nodes is more than fMax (10): the instance could never hold it");
    }

    @Test
    void typedValuesAreCheckedWithoutBeingApplied() {
        SettingsLayer layer = SettingsLayer.EMPTY.withFMax(0).withInitialWorkers(-1)
                .withTIdle(IdleTime.fixed(Duration.ofSeconds(-5))).withUMin(-1).withUMax(100.5)
                .withSamplePeriod(Duration.ZERO).withOrchestratorThreshold(0).withWeight(-1).withMinShare(-2);
        assertThat(layer.problems()).extracting(SettingProblem::toString).containsExactly(
                "fMax: 0 must be at least 1",
                "initialWorkers: -1 must not be negative",
                "tIdle: -5 s must not be negative",
                "uMin: -1 is not a percentage (0 to 100)",
                "uMax: 100.5 is not a percentage (0 to 100)",
                "samplePeriod: 0 s must be positive",
                "orchestratorThreshold: 0 must be above 0",
                "weight: -1 must be above 0",
                "minShare: -2 must not be negative");
        assertThat(SettingsLayer.EMPTY.withTIdle(IdleTime.factor(-2)).problems()).extracting(SettingProblem::toString)
                .containsExactly("tIdleFactor: -2 must be above 0");
        assertThat(SettingsLayer.EMPTY.withUMin(0).withUMax(100).problems()).isEmpty();
    }

    @Test
    void settingsCannotBeBuiltWithARefusedValue() {
        SettingsLayer bad = ProvisioningSettings.builtIn(PolicyKind.ONDEMAND).withUMin(60);
        assertThatThrownBy(bad::toSettings).isInstanceOf(InvalidSettingsException.class)
                .hasMessage("uMax: 50 must be above uMin (60)");
        assertThatThrownBy(() -> SettingsLayer.EMPTY.withFMax(4).toSettings()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void tIdleIsFixedOrNTimesTheGrowOverhead() {
        ProvisioningSettings onDemand = ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 2);
        ProvisioningSettings proactive = ProvisioningSettings.defaults(PolicyKind.PROACTIVE, 2);
        assertThat(onDemand.idleTime(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(180));
        assertThat(proactive.idleTime(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(60));
        assertThat(proactive.idleTime(Duration.ofMillis(45_500))).isEqualTo(Duration.ofSeconds(91));
        ProvisioningSettings fixed = onDemand.asLayer().withTIdle(IdleTime.fixed(Duration.ofSeconds(100))).toSettings();
        assertThat(fixed.idleTime(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(100));
        assertThat(IdleTime.factor(2.5).describe()).isEqualTo("2.5 × O_grow");
    }

    /** A map of any number of key, value pairs (Map.of takes at most 10). */
    private static Map<String, String> map(String... keysAndValues) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static List<String> problemsOf(Map<String, String> values) {
        try {
            SettingsLayer.parse(values);
            return List.of();
        } catch (InvalidSettingsException e) {
            return e.problems().stream().map(SettingProblem::toString).toList();
        }
    }
}
