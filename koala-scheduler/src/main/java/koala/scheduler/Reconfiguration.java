package koala.scheduler;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import koala.grid.ConfigCheck;
import koala.grid.GridConfig;
import koala.scheduler.api.MetricsToken;
import koala.scheduler.config.ConfigReload;
import koala.scheduler.config.LogLevels;
import koala.scheduler.config.SchedulerConfigCheck;
import koala.scheduler.config.SchedulerSettings;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A running scheduler's configuration read again ({@code SIGHUP}): the file is read and checked
 * off the loop, on {@code reads}; the loop then decides ({@link ConfigReload}) and carries out what
 * changed — the scheduler's live settings, the Close-to-Files catalog and the sharing of a full grid
 * ({@link Scheduler#retune}), the site provisioning defaults it reads ({@link #inForce}), the metrics
 * token file (made there if missing: a small local write on the loop) and the loggers' levels — and
 * names in the log each change that waits for a restart. A file that fails the check is refused
 * whole and changes nothing.
 */
final class Reconfiguration {
    private static final Logger LOG = LogManager.getLogger(Reconfiguration.class);

    private final Path koalaHome;
    private final Scheduler scheduler;
    private final SchedulerLoop loop;
    private final MetricsToken metricsToken;
    private final LogLevels logLevels;
    private final Executor reads;
    /** The file whose live keys are in force: where a site's provisioning defaults are read. */
    private final AtomicReference<GridConfig> inForce;
    /** Every key's value in force (the live ones from the last file taken, the others from the start); the loop's. */
    private Map<String, String> values;

    /** @param inForce the configuration the scheduler started with; replaced by each file taken */
    Reconfiguration(AtomicReference<GridConfig> inForce, Path koalaHome, Scheduler scheduler, SchedulerLoop loop,
                    MetricsToken metricsToken, LogLevels logLevels, Executor reads) {
        this.inForce = inForce;
        this.values = inForce.get().values();
        this.koalaHome = koalaHome;
        this.scheduler = scheduler;
        this.loop = loop;
        this.metricsToken = metricsToken;
        this.logLevels = logLevels;
        this.reads = reads;
    }

    /**
     * Reads the file again, off the loop, and has the loop take what changed; returns at once, with what
     * the loop decided to come (a file that could not be read at all completes it exceptionally).
     */
    java.util.concurrent.CompletableFuture<ConfigReload.Decision> request() {
        Path file = inForce.get().file();
        java.util.concurrent.CompletableFuture<ConfigReload.Decision> decided = new java.util.concurrent.CompletableFuture<>();
        reads.execute(() -> {
            LOG.info("{}: reading the configuration again", file);
            try {
                ConfigCheck.Report report = SchedulerConfigCheck.check(file, koalaHome);
                loop.post(() -> decided.complete(decide(report)));
            } catch (RuntimeException e) {
                LOG.error("{}: could not be read again: {}", file, e.toString());
                decided.completeExceptionally(e);
            }
        });
        return decided;
    }

    /** On the loop. */
    private ConfigReload.Decision decide(ConfigCheck.Report report) {
        Map<String, String> next = report.grid().map(GridConfig::values).orElse(Map.of());
        ConfigReload.Decision decision = ConfigReload.decide(values, next, report.problems());
        if (decision instanceof ConfigReload.Refused refused) {
            LOG.warn("{}: refused whole, the configuration in force stays: {}", report.file(),
                    refused.problems().stream().map(Object::toString).collect(Collectors.joining("; ")));
        } else if (decision instanceof ConfigReload.Accepted accepted) {
            take(accepted, report.grid().orElseThrow());
        }
        return decision;
    }

    private void take(ConfigReload.Accepted accepted, GridConfig next) {
        if (accepted.unchanged()) {
            LOG.info("{}: nothing changed", next.file());
        }
        accepted.atNextStart().forEach(c -> LOG.warn("{}", c.describe()));
        boolean tokenMoved = metricsTokenOf(next);
        if (!accepted.applied().isEmpty()) {
            scheduler.retune(SchedulerSettings.from(next, koalaHome), FileCatalog.from(next),
                    SchedulerDaemon.arbitration(next));
            scheduler.nodeGroups(SchedulerDaemon.nodeGroups(next));
            inForce.set(next);
            logLevels.apply(values, accepted.inForce());
            accepted.applied().stream().filter(c -> tokenMoved || !c.key().equals(TOKEN_FILE))
                    .forEach(c -> LOG.info("{}", c.describe()));
        }
        values = accepted.inForce();
        if (!tokenMoved) {
            // the next reload tries the new file again
            values = new java.util.HashMap<>(values);
            values.compute(TOKEN_FILE, (k, v) -> metricsToken.file().equals(koalaHome.resolve("metrics.token")) ? null
                    : metricsToken.file().toString());
        }
    }

    private static final String TOKEN_FILE = "scheduler.metrics.tokenFile";

    /** Whether the metrics token is now read from the file {@code next} names. */
    private boolean metricsTokenOf(GridConfig next) {
        Path file = SchedulerDaemon.metricsTokenFile(next, koalaHome);
        if (!file.equals(metricsToken.file())) {
            try {
                metricsToken.moveTo(file);
            } catch (IOException e) {
                LOG.warn("cannot make the metrics token {} ({}: {}); {} stays in use", file, e.getClass().getSimpleName(),
                        e.getMessage(), metricsToken.file());
                return false;
            }
        }
        return true;
    }
}
