package koala.scheduler.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import koala.placement.PlacementPolicies;

/**
 * The scheduler's settings, from the {@code scheduler.*} keys of the grid configuration.
 *
 * @param port             HTTP port of the scheduler's API (node launchers call back to it)
 * @param placementEvery   how often the placement queue is retried
 * @param maxPlaceTries    placement tries after which a waiting job fails
 * @param claimTimeout     how long a component's pilots may take to start before it is placed again
 * @param maxClaimFailures claim failures after which the whole job goes back to the queue
 * @param defaultPolicy    placement policy for jobs whose JDF names none
 * @param kisEvery         how often the information service polls each site agent
 * @param nodeGiveUp       how long a node launcher keeps trying to reach a lost scheduler
 * @param keepEnded        how long an ended job stays in memory (in {@code koala jobs}); the database keeps it
 * @param retention        how long the database keeps an ended job (then it is forgotten)
 * @param accounting       the accounting file: a usage record per job and instance that ended, kept for good
 * @param sweepEvery       how often the sites' pilots are looked over for ones no node owns (killed when seen twice)
 * @param gpuDevices       the GPU device indices the admin declares, by site, then host ({@code site.S.gpuDevices.H});
 *                         a host not named has devices 0..N-1 for SGE's {@code gpu=N}
 */
public record SchedulerSettings(int port, Duration placementEvery, int maxPlaceTries, Duration claimTimeout,
                                int maxClaimFailures, String defaultPolicy, Duration kisEvery, Duration nodeGiveUp,
                                Path database, int maxQueuedPerUser, Duration keepEnded, Duration retention,
                                Path accounting, Duration sweepEvery,
                                Map<String, Map<String, List<Integer>>> gpuDevices) {

    public SchedulerSettings {
        gpuDevices = Map.copyOf(gpuDevices);
    }

    /** Settings with no GPU devices declared. */
    public SchedulerSettings(int port, Duration placementEvery, int maxPlaceTries, Duration claimTimeout,
                             int maxClaimFailures, String defaultPolicy, Duration kisEvery, Duration nodeGiveUp,
                             Path database, int maxQueuedPerUser, Duration keepEnded, Duration retention,
                             Path accounting, Duration sweepEvery) {
        this(port, placementEvery, maxPlaceTries, claimTimeout, maxClaimFailures, defaultPolicy, kisEvery, nodeGiveUp,
                database, maxQueuedPerUser, keepEnded, retention, accounting, sweepEvery, Map.of());
    }

    /** The sweep's default interval: 30 s. */
    public static final Duration SWEEP_EVERY = Duration.ofSeconds(30);

    /** Settings with the sweep every {@link #SWEEP_EVERY}. */
    public SchedulerSettings(int port, Duration placementEvery, int maxPlaceTries, Duration claimTimeout,
                             int maxClaimFailures, String defaultPolicy, Duration kisEvery, Duration nodeGiveUp,
                             Path database, int maxQueuedPerUser, Duration keepEnded, Duration retention,
                             Path accounting) {
        this(port, placementEvery, maxPlaceTries, claimTimeout, maxClaimFailures, defaultPolicy, kisEvery, nodeGiveUp,
                database, maxQueuedPerUser, keepEnded, retention, accounting, SWEEP_EVERY);
    }

    public static SchedulerSettings from(GridConfig grid, Path koalaHome) {
        SchedulerSettings s = new SchedulerSettings(grid.integer("scheduler.port", 7400),
                grid.seconds("scheduler.placementInterval", Duration.ofSeconds(2)),
                grid.integer("scheduler.placementTries", 150),
                grid.seconds("scheduler.claimTimeout", Duration.ofSeconds(60)),
                grid.integer("scheduler.claimFailures", 3),
                placement(grid),
                grid.seconds("scheduler.kisInterval", Duration.ofSeconds(2)),
                grid.seconds("scheduler.nodeGiveUp", Duration.ofSeconds(300)),
                h2File(grid, koalaHome),
                grid.integer("scheduler.maxQueuedPerUser", 1000),
                grid.seconds("scheduler.keepEnded", Duration.ofMinutes(10)),
                grid.seconds("scheduler.retention", Duration.ofDays(30)),
                grid.value("scheduler.accounting").map(Path::of).orElse(koalaHome.toAbsolutePath().resolve("accounting.jsonl")),
                grid.seconds("scheduler.sweepInterval", SWEEP_EVERY),
                gpuDevices(grid));
        s.check(grid);
        return s;
    }

    /**
     * These settings with those of {@code next} that a running scheduler takes when it re-reads its
     * configuration (the keys {@code koala.grid.ConfigKeys} marks live): the default placement
     * policy, the placement interval and tries, the queue limit per user, how long ended jobs stay
     * in memory and in the database, and how often orphan pilots are looked for. The port, the paths,
     * claiming, polling and the declared GPU devices stay as they started.
     */
    public SchedulerSettings withLive(SchedulerSettings next) {
        return new SchedulerSettings(port, next.placementEvery, next.maxPlaceTries, claimTimeout, maxClaimFailures,
                next.defaultPolicy, kisEvery, nodeGiveUp, database, next.maxQueuedPerUser, next.keepEnded,
                next.retention, accounting, next.sweepEvery, gpuDevices);
    }

    /** {@code site.S.gpuDevices.H} of every site that declares any; a malformed list stops the start, naming its key. */
    private static Map<String, Map<String, List<Integer>>> gpuDevices(GridConfig grid) {
        Map<String, Map<String, List<Integer>>> declared = new java.util.TreeMap<>();
        grid.sites().forEach(site -> {
            Map<String, List<Integer>> hosts = grid.gpuDevices(site.name());
            if (!hosts.isEmpty()) {
                declared.put(site.name(), Map.copyOf(hosts));
            }
        });
        return declared;
    }

    private void check(GridConfig grid) {
        require(port > 0 && port < 65536, grid, "scheduler.port", "a port is 1..65535");
        require(maxPlaceTries >= 1, grid, "scheduler.placementTries", "must be at least 1");
        require(maxClaimFailures >= 1, grid, "scheduler.claimFailures", "must be at least 1");
        require(maxQueuedPerUser >= 1, grid, "scheduler.maxQueuedPerUser", "must be at least 1");
        require(!claimTimeout.isNegative() && !claimTimeout.isZero(), grid, "scheduler.claimTimeout", "must be positive");
        require(!keepEnded.isNegative(), grid, "scheduler.keepEnded", "must not be negative");
        require(retention.compareTo(keepEnded) >= 0, grid, "scheduler.retention",
                "must be at least scheduler.keepEnded (" + keepEnded.toSeconds() + " s)");
        require(accounting.isAbsolute() && !java.nio.file.Files.isDirectory(accounting), grid,
                "scheduler.accounting = " + accounting, "must be the absolute path of a file");
    }

    /** The H2 file of {@code scheduler.database}; its default when that names a database server (backups go beside it). */
    private static Path h2File(GridConfig grid, Path koalaHome) {
        return grid.value("scheduler.database").map(String::strip).filter(v -> !v.isEmpty() && !v.startsWith("jdbc:"))
                .map(Path::of).orElse(koalaHome.resolve("scheduler").resolve("koala"));
    }

    /**
     * The default placement policy's short name, checked now rather than at the first submit that
     * names no policy (which an unknown name would fail with a 500); case and blanks ignored.
     */
    private static String placement(GridConfig grid) {
        String written = grid.value("scheduler.placement").orElse(PlacementPolicies.DEFAULT);
        String name = written.strip().toLowerCase(Locale.ROOT);
        require(PlacementPolicies.names().contains(name), grid, "scheduler.placement = " + written,
                "not a placement policy; known: " + String.join(", ", PlacementPolicies.names()));
        return name;
    }

    private static void require(boolean ok, GridConfig grid, String key, String reason) {
        if (!ok) {
            throw new ConfigException(grid.file(), key.split(" = ")[0], key + ": " + reason);
        }
    }
}
