package koala.arbitration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import koala.provisioning.InvalidSettingsException;
import koala.provisioning.SettingProblem;
import org.junit.jupiter.api.Test;

class ArbitrationSettingsTest {

    @Test
    void theDefaultsAreTodaysRuleWithYarnsBoundAndGrace() {
        ArbitrationSettings d = ArbitrationSettings.DEFAULTS;
        assertThat(d.rule()).isEqualTo(ShareRule.FCFS);
        assertThat(d.describe()).isEqualTo("policy fcfs, at most 10% of the capacity taken back per 15 s, grace 15 s, "
                + "window 300 s");
        // 10% of the capacity, rounded down, at least one node
        assertThat(d.roundBudget(20)).isEqualTo(2);
        assertThat(d.roundBudget(48)).isEqualTo(4);
        assertThat(d.roundBudget(7)).isEqualTo(1);
    }

    @Test
    void theGridConfigurationGivesThemByKey() {
        ArbitrationSettings s = ArbitrationSettings.parse(Map.of("policy", "Performance", "maxTakeBack", "5",
                "grace", "30", "window", "600", "round", "10", "margin", "10", "maxPerHour", "6", "patience", "120"));
        assertThat(s).isEqualTo(new ArbitrationSettings(ShareRule.PERFORMANCE, 0.05, Duration.ofSeconds(30),
                Duration.ofSeconds(600), Duration.ofSeconds(10), 0.10, 6, Duration.ofSeconds(120)));
        assertThat(s.describe()).endsWith("window 600 s, margin 10%, patience 120 s, at most 6 nodes from one instance "
                + "an hour");
        assertThat(ArbitrationSettings.parse(Map.of())).isEqualTo(ArbitrationSettings.DEFAULTS);
    }

    @Test
    void queuedDemandIsTrueOrFalseAndOffByDefault() {
        assertThat(ArbitrationSettings.DEFAULTS.queuedDemand()).isFalse();
        ArbitrationSettings s = ArbitrationSettings.parse(Map.of("policy", "fair", "queuedDemand", " True "));
        assertThat(s).isEqualTo(ArbitrationSettings.of(ShareRule.FAIR).withQueuedDemand(true));
        assertThat(s.describe()).isEqualTo("policy fair, at most 10% of the capacity taken back per 15 s, grace 15 s, "
                + "window 300 s, queued work counted as demand");
        assertThatThrownBy(() -> ArbitrationSettings.parse(Map.of("queuedDemand", "yes")))
                .hasMessage("queuedDemand: 'yes' is not true or false");
    }

    @Test
    void badValuesAreRefusedEachWithItsKey() {
        assertThatThrownBy(() -> ArbitrationSettings.parse(Map.of("policy", "drf", "grace", "-1", "margin", "x",
                "slack", "1"))).isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                .extracting(SettingProblem::toString).containsExactly(
                        "policy: 'drf' is not one of: fcfs, static-partition, fair, performance",
                        "grace: '-1' is not a whole number of seconds",
                        "margin: 'x' is not a number",
                        "slack: unknown setting; known: policy, maxTakeBack, grace, window, round, margin, maxPerHour, "
                                + "patience, queuedDemand"));
        assertThatThrownBy(() -> ArbitrationSettings.parse(Map.of("maxTakeBack", "0")))
                .hasMessage("maxTakeBack: 0% is not above 0% and at most 100%");
        assertThatThrownBy(() -> ArbitrationSettings.DEFAULTS.withRoundPeriod(Duration.ZERO))
                .hasMessage("round: must be positive");
    }

    @Test
    void aPerformanceWindowAveragesWhatWasRecordedWithinIt() {
        Instant t0 = Instant.parse("2024-05-01T10:00:00Z");
        PerformanceWindow w = new PerformanceWindow(Duration.ofMinutes(10));
        assertThat(w.mean(t0)).isEmpty();
        w.record(t0, 0);
        w.record(t0.plusSeconds(60), 1);
        w.record(t0.plusSeconds(120), 0);
        w.record(t0.plusSeconds(180), 1);
        assertThat(w.mean(t0.plusSeconds(180))).hasValue(0.5);
        // at 10:10:00 the value of 10:00:00 has left the window: 2 of 3 lost
        assertThat(w.mean(t0.plusSeconds(600)).getAsDouble()).isEqualTo(2.0 / 3);
        assertThat(PerformanceWindow.stretch(2.0 / 3)).isEqualTo(3.0, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(PerformanceWindow.stretch(0)).isEqualTo(1);
        assertThat(PerformanceWindow.stretch(1)).isEqualTo(PerformanceWindow.MAX_STRETCH);
    }
}
