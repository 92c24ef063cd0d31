package koala.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.api.site.PilotStatus;
import koala.api.site.SiteAgentClient;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.SiteConfig;
import koala.process.AgentProcess;
import koala.testbed.Shell;
import koala.testbed.TestbedException;

/**
 * Latency of a trivial job submitted through a site agent (HTTP, then DRMAA) against plain
 * {@code qsub -sync y}, measured alternately in one run on one testbed cell. The job prints the
 * wall-clock time it started at, which gives submit-to-running; submit-to-finished is when the
 * submitter learns the job has ended (the agent's answer, or {@code qsub -sync y} returning).
 */
public final class SgeLatencyBenchmark {
    /** Medians in milliseconds. */
    public record Result(String site, int runs, double agentToRunning, double agentToFinished, double qsubToRunning,
                         double qsubToFinished) {
        public double runningRatio() {
            return agentToRunning / qsubToRunning;
        }

        public double finishedRatio() {
            return agentToFinished / qsubToFinished;
        }
    }

    private record Sample(double toRunning, double toFinished) {
    }

    private final SiteConfig site;
    private final Path gridConfig;
    private final Path koalaHome;
    private final InstantSource clock;
    private final PrintStream out;

    public SgeLatencyBenchmark(GridConfig grid, String siteName, Path koalaHome, InstantSource clock, PrintStream out) {
        this.site = siteName == null ? grid.sites().get(0) : grid.site(siteName);
        this.gridConfig = grid.file();
        this.koalaHome = koalaHome;
        this.clock = clock;
        this.out = out;
    }

    public Result run(int runs, int warmup) {
        Path stamps = stampDir();
        try (AgentProcess agent = AgentProcess.start(site, gridConfig, koalaHome, 0, Duration.ofSeconds(60))) {
            SiteAgentClient client = agent.client();
            if (!Poll.system().until(() -> client.health().up(), Duration.ofSeconds(30))) {
                throw new TestbedException("agent for " + site.name() + " is not UP: " + client.health().reason());
            }
            out.printf("site %s, agent %s; %d warm-up and %d measured runs of each, alternating%n", site.name(),
                    agent.url(), warmup, runs);
            List<Sample> viaAgent = new ArrayList<>();
            List<Sample> viaQsub = new ArrayList<>();
            for (int i = 0; i < warmup + runs; i++) {
                Sample a = throughAgent(client, stamps.resolve("agent-" + i));
                Sample q = throughQsub(stamps.resolve("qsub-" + i));
                if (i >= warmup) {
                    viaAgent.add(a);
                    viaQsub.add(q);
                    out.printf("  run %2d  agent %6.0f / %6.0f ms   qsub %6.0f / %6.0f ms%n", i - warmup + 1,
                            a.toRunning(), a.toFinished(), q.toRunning(), q.toFinished());
                }
            }
            return new Result(site.name(), runs, median(viaAgent, true), median(viaAgent, false),
                    median(viaQsub, true), median(viaQsub, false));
        }
    }

    private Sample throughAgent(SiteAgentClient client, Path stamp) {
        Instant submitted = clock.instant();
        PilotStatus status = client.submit(PilotSpec.of(PilotSpec.PREFIX + "bench", "/bin/date", "+%s%N")
                .withOutput(stamp.toString(), null));
        while (!status.state().isFinal()) {
            status = client.awaitChange(status.id(), status.state(), Duration.ofSeconds(60));
        }
        Instant finished = clock.instant();
        if (status.state() != PilotState.DONE || status.exitStatus() != 0) {
            throw new TestbedException("benchmark pilot " + status.id() + " ended " + status);
        }
        return sample(submitted, stamp, finished);
    }

    /** One plain {@code qsub -sync y} of a trivial job on this site: milliseconds from submit to the job running. */
    public double qsubToRunning() {
        Path dir = stampDir();
        return throughQsub(dir.resolve("qsub")).toRunning();
    }

    private Sample throughQsub(Path stamp) {
        Shell qsub = Shell.root().with(site.cell().variables()).as(site.agentUser());
        Instant submitted = clock.instant();
        qsub.check(site.cell().command("qsub").toString(), "-sync", "y", "-b", "y", "-N", "bench-qsub", "-o",
                stamp.toString(), "-j", "y", "/bin/date", "+%s%N");
        return sample(submitted, stamp, clock.instant());
    }

    private Sample sample(Instant submitted, Path stamp, Instant finished) {
        Instant started = readStamp(stamp);
        return new Sample(millis(submitted, started), millis(submitted, finished));
    }

    static Instant readStamp(Path stamp) {
        // the job's output is written by the execd as the job ends; it is complete once the job is
        if (!Poll.system().until(() -> Files.exists(stamp) && sizeOf(stamp) > 0, Duration.ofSeconds(10))) {
            throw new TestbedException("job wrote no start time to " + stamp);
        }
        try {
            long nanos = Long.parseLong(Files.readString(stamp).trim());
            return Instant.ofEpochSecond(0, nanos);
        } catch (IOException | NumberFormatException e) {
            throw new TestbedException("unreadable start time in " + stamp + ": " + e.getMessage());
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    private static double millis(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e6;
    }

    static double median(List<Sample> samples, boolean toRunning) {
        double[] v = samples.stream().mapToDouble(s -> toRunning ? s.toRunning() : s.toFinished()).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Where the jobs write their start times: the job account's home, which the compute nodes see. */
    private Path stampDir() {
        return koala.grid.Accounts.directoryOf(site.agentUser(), "koala-bench-" + Long.toHexString(System.nanoTime()));
    }
}
