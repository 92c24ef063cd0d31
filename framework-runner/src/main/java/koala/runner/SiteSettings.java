package koala.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import koala.provisioning.InvalidSettingsException;
import koala.provisioning.ResolvedSettings;
import koala.provisioning.SettingsLayer;
import koala.provisioning.SettingsResolver;

/**
 * The provisioning settings in force for one instance: its JDF's values over its home site's
 * defaults ({@code site.S.provisioning.*} in the grid configuration) over the built-in ones. The
 * runner calls {@link #reload()} every tick; an edit of the grid configuration takes effect then,
 * and an edit with a bad value is refused, naming the key and the reason, with the previous
 * settings kept.
 */
final class SiteSettings {
    private final Path gridFile;
    private final SettingsLayer jdf;
    private String site = "";
    private ResolvedSettings current;
    private FileTime seen;
    private java.util.Set<String> remote = java.util.Set.of();

    /** @throws InvalidSettingsException when the JDF's own values cannot stand */
    SiteSettings(Path gridFile, SettingsLayer jdf) {
        this.gridFile = gridFile;
        this.jdf = jdf;
        this.current = SettingsResolver.resolve(jdf);
        // known from the start: the master says hello (and is told how long to wait) before the first reload
        this.remote = remoteSites(gridFile);
    }

    /** The remote sites the grid configuration names; none when it cannot be read (a reload says why). */
    private static java.util.Set<String> remoteSites(Path gridFile) {
        try {
            return remoteSites(GridConfig.load(gridFile));
        } catch (ConfigException e) {
            return java.util.Set.of();
        }
    }

    private static java.util.Set<String> remoteSites(GridConfig config) {
        return config.sites().stream().filter(koala.grid.SiteConfig::remote)
                .map(koala.grid.SiteConfig::name).collect(Collectors.toUnmodifiableSet());
    }

    ResolvedSettings current() {
        return current;
    }

    String site() {
        return site;
    }

    /**
     * Whether {@code site} is a remote one, whose nodes reach this runner only through the scheduler's
     * SSH link to its head node (as the grid configuration last read says).
     */
    boolean remote(String site) {
        return site != null && remote.contains(site);
    }

    /** Moves the instance to its home site (where its master runs); a change message, or the refusal. */
    Optional<String> home(String homeSite) {
        this.site = homeSite;
        this.seen = null;
        return reload();
    }

    /**
     * Re-reads the grid configuration if it changed since the last read: what changed ("settings
     * changed: fMax = 8 from site fs0 …"), or why the new values were refused; empty when nothing changed.
     */
    Optional<String> reload() {
        FileTime modified = modified();
        if (modified == null || modified.equals(seen)) {
            return Optional.empty();
        }
        seen = modified;
        try {
            GridConfig config = GridConfig.load(gridFile);
            remote = remoteSites(config);
            SettingsLayer siteLayer = config.sites().stream().anyMatch(s -> s.name().equals(site))
                    ? SettingsLayer.parse(config.section("site." + site + ".provisioning")) : SettingsLayer.EMPTY;
            ResolvedSettings next = SettingsResolver.resolve(site, siteLayer, jdf);
            List<String> changed = next.describe().stream().filter(l -> !current.describe().contains(l)).toList();
            current = next;
            return changed.isEmpty() ? Optional.empty() : Optional.of("settings now: " + String.join("; ", changed));
        } catch (InvalidSettingsException e) {
            return Optional.of(gridFile + ": refused, previous settings stay: " + e.problems().stream()
                    .map(p -> "site." + site + ".provisioning." + p.key() + ": " + p.reason())
                    .collect(Collectors.joining("; ")));
        } catch (ConfigException e) {
            return Optional.of("refused, previous settings stay: " + e.getMessage());
        }
    }

    private FileTime modified() {
        try {
            return Files.getLastModifiedTime(gridFile);
        } catch (IOException e) {
            return null;
        }
    }
}
