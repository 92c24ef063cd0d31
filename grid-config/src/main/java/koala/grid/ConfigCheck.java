package koala.grid;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.configuration2.Configuration;

/**
 * Checks a grid configuration before an admin installs it ({@code koala config check}) and before a
 * running scheduler takes it ({@code SIGHUP}): every problem at once, each with its file and line.
 *
 * <ul>
 * <li>keys nobody reads: an unknown key, with the nearest known one ({@link ConfigKeys}); a site's keys
 *     when the site is not in {@code grid.sites}; a key given twice (the first value counts);</li>
 * <li>values that do not parse as their key's {@link ValueType}: a port that is not a number, a
 *     duration like {@code 90x};</li>
 * <li>the sites: none listed, a listed site without its {@code sge.cell}, a remote site without its
 *     {@code ssh.key} (or with one that is not there), a file of the Close-to-Files catalogue that
 *     {@code files} does not list or that names a site not listed;</li>
 * <li>then whatever {@link GridConfig} itself refuses, and the {@link Rule}s of the modules that read
 *     the other keys (the scheduler's settings, the sharing and provisioning policies), in their own words.</li>
 * </ul>
 *
 * A key gets one problem, the first found.
 */
public final class ConfigCheck {
    private ConfigCheck() {
    }

    /** A check that only the module reading some keys can make. */
    @FunctionalInterface
    public interface Rule {
        /**
         * Adds to {@code findings} what is wrong with {@code grid}: the file as {@link GridConfig} reads it,
         * less the sites it could not read (those are problems already).
         */
        void check(GridConfig grid, Findings findings);
    }

    /** Where a {@link Rule} puts what it found; the key's place in the file is looked up. */
    public interface Findings {
        /** @param detail the key, its value where it matters, and the reason */
        void add(String key, String detail);

        /** A problem {@code e} names: about its key when it has one, about the file otherwise. */
        default void add(ConfigException e) {
            add(e.key().orElse(""), e.detail());
        }
    }

    /**
     * What a check found.
     *
     * @param sites    the sites {@code grid.sites} lists
     * @param keys     how many keys the file (with what it includes) gives
     * @param problems every problem, in the order of the file
     * @param grid     the configuration as read, when {@link GridConfig} accepted it (with problems or not)
     */
    public record Report(Path file, int sites, int keys, List<ConfigProblem> problems, Optional<GridConfig> grid) {
        public boolean clean() {
            return problems.isEmpty();
        }

        /** {@code grid.properties: 3 sites, 41 keys, no problems} (or how many problems). */
        public String summary() {
            return file + ": " + count(sites, "site") + ", " + count(keys, "key") + ", "
                    + (problems.isEmpty() ? "no problems" : count(problems.size(), "problem"));
        }

        private static String count(int n, String what) {
            return n + " " + what + (n == 1 ? "" : "s");
        }
    }

    /** Checks {@code file} with {@code rules} after the checks of this package. */
    public static Report check(Path file, List<Rule> rules) {
        if (!Files.isRegularFile(file)) {
            return new Report(file, 0, 0, List.of(new ConfigProblem(file, 0, "", "no such file")), Optional.empty());
        }
        Configuration config;
        try {
            config = GridConfig.read(file);
        } catch (ConfigException e) {
            return new Report(file, 0, 0, List.of(new ConfigProblem(file, 0, "", e.getMessage()
                    .substring(file.toString().length() + 2))), Optional.empty());
        }
        KeyLines lines = KeyLines.of(file);
        List<String> sites = sites(config);
        Problems problems = new Problems(file, lines);
        keyFindings(file, config, sites, lines).forEach(f -> problems.add(f.id(), f.problem()));
        values(config, sites, problems);
        sites(config, sites, problems);
        catalogue(config, sites, problems);
        GridConfig lenient = GridConfig.forCheck(file, config, e -> problems.add(e.key().orElse(""), e.detail()));
        for (Rule rule : rules) {
            rule.check(lenient, problems::add);
        }
        Optional<GridConfig> grid;
        try {
            grid = Optional.of(GridConfig.from(file, config));
        } catch (ConfigException e) {
            problems.add(e.key().orElse(""), e.detail());
            grid = Optional.empty();
        }
        return new Report(file, sites.size(), lines.keys().size(), problems.inOrder(), grid);
    }

    /** The problems found so far, one per key, each placed where its key is written. */
    private static final class Problems {
        private final Path file;
        private final KeyLines lines;
        private final Map<String, ConfigProblem> byKey = new LinkedHashMap<>();

        Problems(Path file, KeyLines lines) {
            this.file = file;
            this.lines = lines;
        }

        /** {@code p} unless a problem with the same {@code id} (its key, mostly) was found first. */
        void add(String id, ConfigProblem p) {
            byKey.putIfAbsent(id, p);
        }

        /**
         * At {@code key}'s line; for a key not written (a conflict with a default: "uMax: 50 must be above
         * uMin (60)"), at the first written key of the same section (not of a one-word one such as {@code scheduler.}), if any.
         */
        void add(String key, String detail) {
            add(key, detail, lines.keys().contains(key) ? key : sameSection(key));
        }

        private String sameSection(String key) {
            int dot = key.lastIndexOf('.');
            String section = dot < 0 ? key : key.substring(0, dot + 1);
            return section.indexOf('.') == section.length() - 1 ? key
                    : lines.keys().stream().filter(k -> k.startsWith(section)).findFirst().orElse(key);
        }

        /** At {@code place}: for a key that is missing, the line of the key that makes it needed. */
        void add(String key, String detail, String place) {
            KeyLines.Place at = lines.first(place, file);
            add(key, new ConfigProblem(at.file(), at.line(), key, detail));
        }

        List<ConfigProblem> inOrder() {
            List<ConfigProblem> all = new ArrayList<>(byKey.values());
            all.sort(Comparator.comparing((ConfigProblem p) -> !p.file().equals(file)).thenComparing(p -> p.file().toString())
                    .thenComparingInt(ConfigProblem::line));
            return all;
        }
    }

    private static List<String> sites(Configuration config) {
        return Arrays.stream(config.getString("grid.sites", "").split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .toList();
    }

    /** Whether {@link #keyProblems} would find any: cheap, no file read again. */
    static boolean hasKeyProblems(Configuration config, List<String> sites) {
        List<String> keys = new ArrayList<>();
        config.getKeys().forEachRemaining(keys::add);
        return hasKeyProblems(keys, key -> config.getProperty(key) instanceof java.util.Collection, sites);
    }

    /** As above, for keys read otherwise; {@code twice}: whether a key was given more than once. */
    static boolean hasKeyProblems(List<String> keys, java.util.function.Predicate<String> twice, List<String> sites) {
        ConfigKeys.KeyMatcher matcher = ConfigKeys.forSites(sites);
        for (String key : keys) {
            Optional<ConfigKeys.Match> m = matcher.match(key);
            if (m.isEmpty() || !m.get().unlisted().isEmpty() || twice.test(key)) {
                return true;
            }
        }
        return false;
    }

    /** Keys nobody reads: unknown ones, those of sites not listed, and a key's second value. */
    static List<ConfigProblem> keyProblems(Path file, Configuration config, List<String> sites, KeyLines lines) {
        return keyFindings(file, config, sites, lines).stream().map(Found::problem).toList();
    }

    /** A problem, and what tells it apart from others about the same key. */
    private record Found(String id, ConfigProblem problem) {
    }

    private static List<Found> keyFindings(Path file, Configuration config, List<String> sites, KeyLines lines) {
        ConfigKeys.KeyMatcher matcher = ConfigKeys.forSites(sites);
        List<Found> problems = new ArrayList<>();
        Set<String> unlistedSaid = new HashSet<>();
        for (String key : lines.keys()) {
            if (!config.containsKey(key)) {
                continue;
            }
            KeyLines.Place at = lines.first(key, file);
            Optional<ConfigKeys.Match> m = matcher.match(key);
            if (m.isEmpty()) {
                problems.add(new Found(key, new ConfigProblem(at.file(), at.line(), key, key + ": unknown key"
                        + matcher.nearest(key).map(k -> "; did you mean " + k + "?").orElse(" (the admin guide's "
                        + "configuration reference lists every key)"))));
            } else if (!m.get().unlisted().isEmpty()) {
                String site = m.get().unlisted().get(0);
                if (unlistedSaid.add(site)) {
                    long keys = lines.keys().stream().filter(k -> matcher.match(k).filter(o -> o.unlisted().contains(site))
                            .isPresent()).count();
                    problems.add(new Found(key, new ConfigProblem(at.file(), at.line(), key, key + ": site " + site
                            + " is not listed in grid.sites (" + (sites.isEmpty() ? "none" : String.join(", ", sites))
                            + "): list it there, or " + (keys == 1 ? "this key is" : "its " + keys + " keys are")
                            + " ignored")));
                }
            }
            List<KeyLines.Place> all = lines.all(key);
            if (all.size() > 1) {
                KeyLines.Place again = all.get(1);
                problems.add(new Found(key + " again", new ConfigProblem(again.file(), again.line(), key, key
                        + ": given again (first " + (again.file().equals(at.file()) ? "on line " + at.line() : "at " + at)
                        + "); the first value counts")));
            }
        }
        return problems;
    }

    /** Each known key's value against its type. */
    private static void values(Configuration config, List<String> sites, Problems problems) {
        ConfigKeys.KeyMatcher matcher = ConfigKeys.forSites(sites);
        Iterable<String> keys = config::getKeys;
        for (String key : keys) {
            matcher.match(key).filter(m -> m.unlisted().isEmpty())
                    .flatMap(m -> m.key().type().problem(key, config.getString(key, "")))
                    .ifPresent(detail -> problems.add(key, detail));
        }
    }

    /** Every listed site has its cell; a remote one, its key. */
    private static void sites(Configuration config, List<String> sites, Problems problems) {
        if (sites.isEmpty()) {
            problems.add("grid.sites", "grid.sites: no sites listed");
        }
        Set<String> seen = new HashSet<>();
        for (String site : sites) {
            String p = "site." + site + ".";
            if (!seen.add(site)) {
                problems.add("grid.sites", "grid.sites: " + site + " is listed twice");
            }
            if (config.getString(p + "sge.cell", "").isBlank()) {
                problems.add(p + "sge.cell", p + "sge.cell: missing (" + site + " is listed in grid.sites)",
                        config.containsKey(p + "sge.cell") ? p + "sge.cell" : "grid.sites");
            }
            String host = config.getString(p + "ssh.host", "").strip();
            String key = config.getString(p + "ssh.key", "").strip();
            if (!host.isEmpty() && key.isEmpty()) {
                problems.add(p + "ssh.key", p + "ssh.key: missing (" + site + " is a remote site, " + p + "ssh.host = "
                        + host + "): the private key KOALA logs in with", p + "ssh.host");
            } else if (!host.isEmpty() && Files.notExists(Path.of(key))) {
                problems.add(p + "ssh.key", p + "ssh.key = " + key + ": no such file");
            }
        }
    }

    /** Close-to-Files: a file's keys belong to a file that {@code files} lists, its copies to listed sites. */
    private static void catalogue(Configuration config, List<String> sites, Problems problems) {
        Set<String> files = new HashSet<>(Arrays.stream(config.getString("files", "").split(",")).map(String::strip)
                .filter(s -> !s.isEmpty()).toList());
        Iterable<String> keys = config::getKeys;
        for (String key : keys) {
            if (!key.startsWith("file.") || !(key.endsWith(".size") || key.endsWith(".sites"))) {
                continue;
            }
            String name = key.substring("file.".length(), key.lastIndexOf('.'));
            if (!files.contains(name)) {
                problems.add(key, key + ": " + name + " is not listed in files (" + (files.isEmpty() ? "none"
                        : String.join(", ", new java.util.TreeSet<>(files))) + ")");
            } else if (key.endsWith(".sites")) {
                Arrays.stream(config.getString(key, "").split(",")).map(String::strip)
                        .filter(s -> !s.isEmpty() && !sites.contains(s)).findFirst()
                        .ifPresent(s -> problems.add(key, key + ": " + s + " is not a site in grid.sites"));
            }
        }
    }
}
