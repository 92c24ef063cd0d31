package koala.provisioning;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Effective settings and, for each, where its value came from.
 *
 * @param origins one per {@link Setting}, in the order of {@link Setting}
 */
public record ResolvedSettings(ProvisioningSettings settings, Map<Setting, Origin> origins) {
    public ResolvedSettings {
        Objects.requireNonNull(settings, "settings");
        if (!origins.keySet().containsAll(Arrays.asList(Setting.values()))) {
            throw new IllegalArgumentException("an origin for every setting is needed, got " + origins.keySet());
        }
        origins = Collections.unmodifiableMap(new EnumMap<>(origins));
    }

    public Origin origin(Setting setting) {
        return origins.get(setting);
    }

    /**
     * One line per setting, for {@code koala config}:
     * {@code fMax = 16 from site fs0 cap (jdf asked 30)}, {@code tIdle = 2 × O_grow from default (n = 2 for proactive)}.
     */
    public List<String> describe() {
        return Arrays.stream(Setting.values())
                .map(s -> s.key() + " = " + s.format(settings) + " from " + origins.get(s))
                .toList();
    }
}
