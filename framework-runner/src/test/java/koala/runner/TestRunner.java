package koala.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.provisioning.PolicyKind;
import koala.provisioning.SettingsLayer;

/**
 * Runners for worked examples, as {@code TestGrid} is the scheduler's: a clock the test moves, a
 * {@link FakeScheduler} behind the {@code Schedd} interface, and the runner's loop on the test's own
 * thread ({@link RunnerLoop#direct}) so that a tick, a heartbeat or a grow is done, with all the
 * scheduler's answers, when the call returns. Launchers wait 120 s for a silent runner; the scheduler
 * may be silent 300 s.
 */
final class TestRunner {
    /** Moved by the test. */
    static final class Clock implements InstantSource {
        private volatile Instant now;

        Clock(Instant start) {
            this.now = start;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void set(Instant at) {
            now = at;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    private TestRunner() {
    }

    /** Writes {@code properties} as the grid's configuration in {@code dir}. */
    static Path grid(Path dir, String properties) throws IOException {
        return Files.writeString(dir.resolve("grid.properties"), properties);
    }

    static JobDescription jdf(String text, Map<String, Integer> sites) {
        return JdfParser.parse("test.jdf", text, new ClusterCatalog(sites), PolicyKind.shortNames());
    }

    /** The runner of {@code jdf} on a direct loop, calling {@code scheduler} on the test's thread. */
    static FrameworkRunner direct(InstantSource clock, JobDescription jdf, Path grid, FakeScheduler scheduler,
                                  InstanceSecrets secrets) {
        return on(clock, jdf, grid, RunnerLoop.direct(), SchedulerCalls.direct(scheduler), secrets);
    }

    /** The runner of {@code jdf} on {@code loop}, calling the scheduler through {@code calls}. */
    static FrameworkRunner on(InstantSource clock, JobDescription jdf, Path grid, RunnerLoop loop, SchedulerCalls calls,
                              InstanceSecrets secrets) {
        int workers = jdf.components().stream().filter(c -> Entities.WORKER.equals(c.role()))
                .mapToInt(c -> c.count()).sum();
        return new FrameworkRunner(clock, jdf, loop, calls, new Deployd(jdf, "http://127.0.0.1:1", secrets, "d3vice"),
                new SiteSettings(grid, SettingsLayer.parse(jdf.framework()).withInitialWorkers(workers)),
                Duration.ofSeconds(120), Duration.ofSeconds(300));
    }
}
