package koala.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;

/** The loggers' levels the configuration names, set at start and changed by a reload. */
class LogLevelsTest {
    @Test
    void theKeysNameKoalasLoggersAndAnyOther() {
        assertThat(LogLevels.of(Map.of("scheduler.logLevel", "DEBUG ", "scheduler.logLevel.org.eclipse.jetty", "warn",
                "scheduler.port", "7400"))).containsExactly(Map.entry("koala", "debug"), Map.entry("org.eclipse.jetty", "warn"));
    }

    /** Parents first, so a logger below one set in the same reload keeps its own level; a removed key gives it back. */
    @Test
    void whatAReloadSetsParentsFirstAndWhatItGivesBack() {
        Map<String, Optional<String>> changes = LogLevels.changes(
                Map.of("scheduler.logLevel", "info", "scheduler.logLevel.koala.scheduler.kis", "debug"),
                Map.of("scheduler.logLevel.koala.scheduler.kis", "trace", "scheduler.logLevel.koala.scheduler", "warn"));

        assertThat(changes).containsExactly(Map.entry("koala", Optional.empty()),
                Map.entry("koala.scheduler", Optional.of("warn")), Map.entry("koala.scheduler.kis", Optional.of("trace")));
        assertThat(LogLevels.changes(Map.of("scheduler.logLevel", "info"), Map.of("scheduler.logLevel", "INFO"))).isEmpty();
    }

    @Test
    void aLevelIsSetAndGivenBack() {
        LogLevels levels = LogLevels.atStart();
        Level kis = LogManager.getLogger("koala.scheduler.kis").getLevel();

        levels.apply(Map.of(), Map.of("scheduler.logLevel.koala.scheduler.kis", "trace"));
        assertThat(LogManager.getLogger("koala.scheduler.kis").getLevel()).isEqualTo(Level.TRACE);

        levels.apply(Map.of("scheduler.logLevel.koala.scheduler.kis", "trace"), Map.of());
        assertThat(LogManager.getLogger("koala.scheduler.kis").getLevel()).isEqualTo(kis);
    }
}
