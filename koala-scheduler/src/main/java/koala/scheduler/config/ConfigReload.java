package koala.scheduler.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import koala.grid.ConfigKey;
import koala.grid.ConfigKeys;
import koala.grid.ConfigProblem;

/**
 * What a running scheduler does with its configuration file read again ({@code SIGHUP}), as pure
 * code: given the settings in force, the file's new ones and the problems its check found, the file
 * is
 *
 * <ul>
 * <li>{@link Refused refused whole} when the check found any problem (an unknown key included: the
 *     edit it was meant to make would not be made); nothing changes;</li>
 * <li>otherwise {@link Accepted accepted}: each key whose value changed is either {@code applied} at
 *     once (the catalogue's live keys, {@link ConfigKey#live()}) or waits for the next start. The
 *     settings in force become the new file's live values over the old ones of every other key, so a
 *     change that waits for a restart is named again at every reload until the scheduler restarts.</li>
 * </ul>
 *
 * Keys compare by their values as written, trimmed; an absent key is its default. Changes come in
 * the order of their keys.
 */
public final class ConfigReload {
    private ConfigReload() {
    }

    /** One key whose value changed; empty {@code before}/{@code after} for the key's default. */
    public record Change(String key, Optional<String> before, Optional<String> after, boolean live, String defaultValue) {
        /** {@code scheduler.port changed from 7400 to 7500: takes effect at the next start}. */
        public String describe() {
            return key + " changed from " + show(before) + " to " + show(after)
                    + (live ? ": applied" : ": takes effect at the next start");
        }

        /** The value; for none, "unset" when the key has no default, else its default. */
        private String show(Optional<String> value) {
            return value.map(v -> v.isEmpty() ? "''" : v)
                    .orElse(defaultValue.startsWith("—") ? "unset" : "its default (" + defaultValue + ")");
        }
    }

    /** What becomes of a file read again. */
    public sealed interface Decision permits Refused, Accepted {
    }

    /** The file has problems; the configuration in force stays whole. */
    public record Refused(List<ConfigProblem> problems) implements Decision {
        public Refused {
            problems = List.copyOf(problems);
        }
    }

    /**
     * The file is taken.
     *
     * @param applied     the live keys that changed: in force now
     * @param atNextStart the other keys that changed: in force once the scheduler starts again
     * @param inForce     every key's value in force from now on: what the next reload compares with
     */
    public record Accepted(List<Change> applied, List<Change> atNextStart, Map<String, String> inForce)
            implements Decision {
        public Accepted {
            applied = List.copyOf(applied);
            atNextStart = List.copyOf(atNextStart);
            inForce = Map.copyOf(inForce);
        }

        public boolean unchanged() {
            return applied.isEmpty() && atNextStart.isEmpty();
        }
    }

    /**
     * @param inForce  every key's value in force now, as written ({@code GridConfig.values()} at start)
     * @param next     every key's value in the file read again
     * @param problems what its check found
     */
    public static Decision decide(Map<String, String> inForce, Map<String, String> next, List<ConfigProblem> problems) {
        if (!problems.isEmpty()) {
            return new Refused(problems);
        }
        Set<String> sites = new LinkedHashSet<>(sites(inForce));
        sites.addAll(sites(next));
        ConfigKeys.KeyMatcher matcher = ConfigKeys.forSites(sites);
        Set<String> keys = new TreeSet<>(inForce.keySet());
        keys.addAll(next.keySet());
        List<Change> applied = new ArrayList<>();
        List<Change> waiting = new ArrayList<>();
        Map<String, String> after = new TreeMap<>();
        for (String key : keys) {
            Optional<String> before = Optional.ofNullable(inForce.get(key)).map(String::strip);
            Optional<String> now = Optional.ofNullable(next.get(key)).map(String::strip);
            Optional<ConfigKey> entry = matcher.match(key).map(ConfigKeys.Match::key);
            boolean live = entry.map(ConfigKey::live).orElse(false);
            Optional<String> kept = live ? now : before;
            kept.ifPresent(v -> after.put(key, v));
            if (!before.equals(now)) {
                Change change = new Change(key, before, now, live, entry.map(ConfigKey::defaultValue).orElse("none"));
                (live ? applied : waiting).add(change);
            }
        }
        return new Accepted(applied, waiting, after);
    }

    private static List<String> sites(Map<String, String> values) {
        return java.util.Arrays.stream(values.getOrDefault("grid.sites", "").split(",")).map(String::strip)
                .filter(s -> !s.isEmpty()).toList();
    }
}
