package koala.scheduler.config;

import java.nio.file.Path;
import java.util.List;
import koala.arbitration.ArbitrationSettings;
import koala.grid.ConfigCheck;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import koala.provisioning.InvalidSettingsException;
import koala.provisioning.SettingProblem;
import koala.provisioning.SettingsLayer;
import koala.provisioning.SettingsResolver;

/**
 * The whole check of a grid configuration: {@link ConfigCheck}'s, then what the scheduler would
 * refuse at start, in its words — its settings ({@link SchedulerSettings#from}: a placement policy it
 * does not know, a retention below {@code keepEnded}, ...), the sharing of a full grid
 * ({@code scheduler.arbitration.*}) and each listed site's provisioning defaults
 * ({@code site.S.provisioning.*}, also as the runners merge them with the built-in ones). What
 * {@code koala config check} prints and what a {@code SIGHUP} must pass.
 */
public final class SchedulerConfigCheck {
    private SchedulerConfigCheck() {
    }

    /** @param koalaHome where the scheduler's default paths are (the database, the accounting file) */
    public static ConfigCheck.Report check(Path file, Path koalaHome) {
        return ConfigCheck.check(file, rules(koalaHome));
    }

    static List<ConfigCheck.Rule> rules(Path koalaHome) {
        return List.of(
                (grid, findings) -> settings(grid, koalaHome, findings),
                (grid, findings) -> arbitration(grid).forEach(p -> findings.add("scheduler.arbitration." + p.key(),
                        "scheduler.arbitration." + p.key() + ": " + p.reason())),
                (grid, findings) -> grid.sites().forEach(site -> provisioning(grid, site.name()).forEach(p -> findings.add(
                        "site." + site.name() + ".provisioning." + p.key(),
                        "site." + site.name() + ".provisioning." + p.key() + ": " + p.reason()))));
    }

    /**
     * {@link SchedulerSettings#from}, which stops at the first bad value: read again without each key
     * it refused, so that every one is found.
     */
    private static void settings(GridConfig grid, Path koalaHome, ConfigCheck.Findings findings) {
        java.util.Set<String> refused = new java.util.HashSet<>();
        while (true) {
            try {
                SchedulerSettings.from(refused.isEmpty() ? grid : grid.without(refused), koalaHome);
                return;
            } catch (ConfigException e) {
                findings.add(e);
                if (e.key().isEmpty() || !refused.add(e.key().get())) {
                    return;
                }
            }
        }
    }

    private static List<SettingProblem> arbitration(GridConfig grid) {
        try {
            ArbitrationSettings.parse(grid.section("scheduler.arbitration"));
            return List.of();
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
    }

    /** A site's provisioning defaults, alone and over the built-in ones (a uMin of 60 under the default uMax of 50). */
    private static List<SettingProblem> provisioning(GridConfig grid, String site) {
        try {
            return SettingsResolver.check(site, SettingsLayer.parse(grid.section("site." + site + ".provisioning")),
                    SettingsLayer.EMPTY);
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
    }
}
