package koala.provisioning;

import java.util.Objects;

/**
 * Why a setting was refused, e.g. key "uMax", reason "50 must be above uMin (60)". Reads as
 * {@code uMax: 50 must be above uMin (60)}, like the JDF checker's messages.
 *
 * @param key the key as written ("fMax", "tIdleFactor", or an unknown key as given)
 */
public record SettingProblem(String key, String reason) {
    public SettingProblem {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String toString() {
        return key + ": " + reason;
    }
}
