package koala.provisioning;

import static koala.provisioning.Setting.F_MAX;
import static koala.provisioning.Setting.INITIAL_WORKERS;
import static koala.provisioning.Setting.MIN_SHARE;
import static koala.provisioning.Setting.ORCHESTRATOR_THRESHOLD;
import static koala.provisioning.Setting.POLICY;
import static koala.provisioning.Setting.POOL;
import static koala.provisioning.Setting.RESERVE;
import static koala.provisioning.Setting.SAMPLE_PERIOD;
import static koala.provisioning.Setting.T_IDLE;
import static koala.provisioning.Setting.U_MAX;
import static koala.provisioning.Setting.U_MIN;
import static koala.provisioning.Setting.WEIGHT;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Merges three layers of settings into the effective ones: built-in defaults &lt; the site's
 * configured defaults &lt; the JDF's explicit values. Each setting takes the value of the highest
 * layer that gives it, with one exception: a site's {@code fMax}, {@code weight} and
 * {@code minShare} are also ceilings — a JDF may ask for fewer workers, a lighter weight or a
 * smaller guaranteed share than the site allows, never more (the site value then wins, marked
 * "site fs0 cap"). The built-in {@code t_idle} depends on the effective policy (n = 6 for
 * OnDemand and Static, 2 for Proactive), so the policy is settled first.
 *
 * <p>The merged values are then checked together, so conflicts across layers are found too
 * (a site's uMin 60 against a JDF's uMax 50); each problem says where its values came from.
 * Resolving applies nothing: on {@link InvalidSettingsException} the caller keeps what it had.
 */
public final class SettingsResolver {
    private SettingsResolver() {
    }

    /** Resolves a JDF's settings on a grid whose site configures no provisioning defaults. */
    public static ResolvedSettings resolve(SettingsLayer jdf) {
        return resolve("", SettingsLayer.EMPTY, jdf);
    }

    /**
     * The effective settings for a framework instance deployed from {@code jdf} on {@code site}.
     *
     * @throws InvalidSettingsException listing every problem with the merged values
     */
    public static ResolvedSettings resolve(String site, SettingsLayer siteDefaults, SettingsLayer jdf) {
        Merge merge = new Merge(site, siteDefaults, jdf);
        List<SettingProblem> problems = merge.problems();
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        return new ResolvedSettings(merge.layer.toSettings(), merge.origins);
    }

    /** The problems {@link #resolve} would refuse, without throwing; empty when they would be accepted. */
    public static List<SettingProblem> check(String site, SettingsLayer siteDefaults, SettingsLayer jdf) {
        return new Merge(site, siteDefaults, jdf).problems();
    }

    /** One merge: the merged layer and the origin of each of its values. */
    private static final class Merge {
        private final String site;
        private final Map<Setting, Origin> origins = new EnumMap<>(Setting.class);
        private final SettingsLayer layer;

        Merge(String site, SettingsLayer siteLayer, SettingsLayer jdf) {
            this.site = Objects.requireNonNull(site, "site");
            PolicyKind policy = pick(POLICY, jdf.policy(), siteLayer.policy(), ProvisioningSettings.DEFAULT_POLICY, "");
            SettingsLayer d = ProvisioningSettings.builtIn(policy);
            String n = "n = " + Texts.number(policy.defaultIdleFactor()) + " for " + policy;
            layer = new SettingsLayer(policy, capped(F_MAX, jdf.fMax(), siteLayer.fMax(), d.fMax()),
                    pick(T_IDLE, jdf.tIdle(), siteLayer.tIdle(), d.tIdle(), n),
                    pick(U_MIN, jdf.uMin(), siteLayer.uMin(), d.uMin(), ""),
                    pick(U_MAX, jdf.uMax(), siteLayer.uMax(), d.uMax(), ""),
                    pick(SAMPLE_PERIOD, jdf.samplePeriod(), siteLayer.samplePeriod(), d.samplePeriod(), ""),
                    pick(ORCHESTRATOR_THRESHOLD, jdf.orchestratorThreshold(), siteLayer.orchestratorThreshold(),
                            d.orchestratorThreshold(), ""),
                    pick(INITIAL_WORKERS, jdf.initialWorkers(), siteLayer.initialWorkers(), d.initialWorkers(), ""),
                    pick(RESERVE, jdf.reservePercent(), siteLayer.reservePercent(), d.reservePercent(), ""),
                    pick(POOL, jdf.pool(), siteLayer.pool(), d.pool(), ""),
                    capped(WEIGHT, jdf.weight(), siteLayer.weight(), d.weight()),
                    capped(MIN_SHARE, jdf.minShare(), siteLayer.minShare(), d.minShare()));
        }

        private <T> T pick(Setting setting, T jdf, T siteValue, T builtIn, String defaultNote) {
            if (jdf != null) {
                origins.put(setting, Origin.jdf());
                return jdf;
            }
            if (siteValue != null) {
                origins.put(setting, Origin.site(site));
                return siteValue;
            }
            origins.put(setting, Origin.builtIn(defaultNote));
            return builtIn;
        }

        /** The JDF's value unless the site's is lower; the site's is a ceiling as well as a default. */
        private <T extends Number & Comparable<T>> T capped(Setting setting, T jdf, T siteValue, T builtIn) {
            if (jdf != null && siteValue != null && jdf.compareTo(siteValue) > 0) {
                origins.put(setting, Origin.siteCap(site, Texts.number(jdf.doubleValue())));
                return siteValue;
            }
            return pick(setting, jdf, siteValue, builtIn, "");
        }

        /** The merged values' problems, each ending with where its values came from. */
        List<SettingProblem> problems() {
            return SettingsChecks.found(layer).stream()
                    .map(f -> new SettingProblem(f.problem().key(), f.problem().reason() + "; " + from(f.involved())))
                    .toList();
        }

        private String from(List<Setting> involved) {
            if (involved.size() == 1) {
                return "from " + origins.get(involved.get(0));
            }
            return involved.stream().map(s -> s.key() + " from " + origins.get(s)).collect(Collectors.joining(", "));
        }
    }
}
