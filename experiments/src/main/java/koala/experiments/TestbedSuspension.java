package koala.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import koala.cli.FluentCommands;
import koala.cli.Koala;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.provisioning.PolicyKind;
import koala.sim.Generators;
import koala.sim.TimeScale;
import koala.sim.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code koala experiment testbed-suspension}: Neptune's question on the real testbed. The paper's
 * {@code W_rl} with word counts mixed in (as {@code experiment suspension} simulates it), compressed
 * in time, is run by real instances of the reference framework under each policy twice: without
 * suspension (today: an RL that finds no idle worker is rejected or grown for) and with the master's
 * {@code --suspend K} (an RL suspends the word counts of a worker running only word counts; they
 * resume or move to free slots). Measured from the master's answers and events: RLs rejected, RL
 * start latency (arrival to placement), word-count completion (arrival to its counts checked) and
 * the worker node-hours the runner held.
 */
@Command(name = "testbed-suspension", mixinStandardHelpOptions = true,
        description = {"Suspension on the real SGE testbed: W_rl with word counts mixed in, compressed --scale times "
                + "(RLs of 30 s; SWCs of --swc-duration/scale s with 4-10 components, a batch of 2.5 every "
                + "--swc-every/scale s), F_max 20, --slots per worker, under each of --policies without and with the "
                + "master's --suspend K: RLs rejected, RL start latency, SWC completion, node-hours. Needs the testbed "
                + "up; uses the scheduler running on the grid's port, or starts one. About --minutes + 3 minutes per "
                + "run, two runs per policy. Writes testbed-suspension.csv to --out."})
final class TestbedSuspension implements Callable<Integer> {
    @Option(names = "--minutes", defaultValue = "4", description = "minutes of arrivals per run (default: ${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--policies", split = ",", defaultValue = "static,ondemand,pool", description = "policies, in this "
            + "order (default: ${DEFAULT-VALUE})")
    List<String> policies;

    @Option(names = "-k", defaultValue = "3", description = "times one word count may be suspended (default: "
            + "${DEFAULT-VALUE})")
    int k;

    @Option(names = "--seed", defaultValue = "1", description = "the workload's seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--scale", defaultValue = "10", description = "time compression (default: ${DEFAULT-VALUE})")
    double scale;

    @Option(names = "--slots", defaultValue = "8", description = "slots per worker, as in the simulated experiment "
            + "(default: ${DEFAULT-VALUE})")
    int slots;

    @Option(names = "--static-workers", defaultValue = "20", description = "Static's workers (default: ${DEFAULT-VALUE})")
    int staticWorkers;

    @Option(names = "--swc-every", defaultValue = "300", description = "paper seconds between batches of word counts, "
            + "on average (default: ${DEFAULT-VALUE})")
    double swcEvery;

    @Option(names = "--swc-duration", defaultValue = "600", description = "paper seconds a word count streams its file "
            + "(default: ${DEFAULT-VALUE})")
    long swcDuration;

    @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE})")
    Path out;

    /** One run's figures. */
    record Figures(String policy, int suspend, long rls, long rlsRejected, double rlStartMean, double rlStartP95,
                   long swcs, long swcsFinished, double swcCompletionMean, double nodeHours, long suspensions,
                   long moved, long failed) {
        double rejectedPercent() {
            return rls == 0 ? 0 : 100.0 * rlsRejected / rls;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (!(minutes > 0) || k < 1 || slots < 4) {
            throw new IllegalArgumentException("--minutes must be positive, -k at least 1, --slots at least 4 (a word "
                    + "count's smallest)");
        }
        List<PolicyKind> kinds = TestbedSetup.policies(policies);
        TestbedSetup setup = new TestbedSetup(scale, 20, staticWorkers, 2, 0.1);
        Workload workload = workload(setup);
        PrintStream o = System.out;
        long rls = workload.jobs().stream().flatMap(j -> j.apps().stream()).filter(a -> a.isRl()).count();
        o.printf(Locale.ROOT, "W_rl + W_swc compressed %sx, seed %d: %d RLs and %d word counts arriving over %.1f min; "
                        + "%d slots per worker, k = %d; the window lasts %d s%n", TestbedReport.num(scale), seed, rls,
                workload.applications() - rls, minutes, slots, k, workload.length().toSeconds());
        Optional<TestbedScheduler> testbed = TestbedScheduler.open(o);
        if (testbed.isEmpty()) {
            return Koala.FAILURE;
        }
        List<Figures> all = new ArrayList<>();
        try (TestbedScheduler scheduler = testbed.get()) {
            TestbedRun run = new TestbedRun(scheduler.client(), scheduler.gridFile(), setup, InstantSource.system(), o);
            Path words = words();
            Duration drain = new TimeScale(scale).compress(Duration.ofSeconds(swcDuration)).multipliedBy(3);
            for (PolicyKind p : kinds) {
                for (int suspend : new int[] {0, k}) {
                    o.printf("%n%s, %s%n", p, suspend == 0 ? "no suspension (today)" : "--suspend " + suspend);
                    try {
                        TestbedRun.Result r = run.run("susp-" + p.shortName() + (suspend == 0 ? "" : "-k" + suspend), p,
                                setup.initialWorkers(p), setup.fMax(p),
                                setup.jdfAttributes(p, Runtime.getRuntime().availableProcessors()), workload,
                                new TestbedRun.Deployment(slots, suspend, words, drain));
                        Figures f = figures(p.shortName(), suspend, r, TestbedRun.masterEvents(r.instance()));
                        all.add(f);
                        o.println("  " + line(f));
                    } catch (RuntimeException | IOException e) {
                        o.println("  " + p + " failed, left out: " + e.getMessage());
                    }
                }
            }
        }
        print(all, o);
        write(all, out);
        o.println("\nresults in " + out.toAbsolutePath());
        return all.size() == 2 * kinds.size() ? 0 : Koala.FAILURE;
    }

    Workload workload(TestbedSetup setup) {
        return setup.compressed(minutes, paperLength -> Generators.mixed(setup.workload(), 1 / swcEvery,
                Duration.ofSeconds(swcDuration), 60, paperLength, seed));
    }

    /** The text the word counts read: words enough to keep a reader busy for a compressed run, no more. */
    private static Path words() throws IOException {
        Path file = FluentCommands.dir().resolve("suspension-words.txt");
        List<String> lines = IntStream.range(0, 4000).mapToObj(i -> "batch work " + i % 97 + " yields to stream "
                + i % 13 + " and resumes").toList();
        Files.write(file, lines);
        return file;
    }

    private static final Pattern PLACED = Pattern.compile("^(\\S+) placed: ");
    private static final Pattern SUSPENDED = Pattern.compile("^\\S+ suspended \\(");

    /** The figures of one run from the master's answers and events ({@code events}: its events.log, JSON lines). */
    static Figures figures(String policy, int suspend, TestbedRun.Result r, List<String> events) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, Instant> placed = new HashMap<>();
        Map<String, Instant> finished = new HashMap<>();
        long suspensions = 0;
        long moved = 0;
        for (String line : events) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode e = json.readTree(line);
            Instant at = Instant.parse(e.path("time").asText());
            String kind = e.path("kind").asText();
            String text = e.path("text").asText();
            Matcher m = PLACED.matcher(text);
            if (kind.equals("NOTE") && m.find()) {
                placed.putIfAbsent(m.group(1), at);
            } else if (kind.equals("NOTE") && SUSPENDED.matcher(text).find()) {
                suspensions++;
            } else if (kind.equals("APP_FINISHED")) {
                finished.put(e.path("app").asText(), at);
            } else if (kind.equals("MOVED")) {
                moved += e.path("components").asLong();
            }
        }
        Map<String, Instant> arrived = new HashMap<>();
        r.submitted().forEach(s -> arrived.put(s.job(), s.arrived()));
        List<Double> rlStarts = new ArrayList<>();
        List<Double> swcDone = new ArrayList<>();
        long rls = 0;
        long rejected = 0;
        long swcs = 0;
        for (AppReply a : r.apps()) {
            Instant at = arrived.get(job(a.id()));
            if (a.kind().equals("rl")) {
                rls++;
                if (a.verdict().equalsIgnoreCase("REJECTED")) {
                    rejected++;
                } else if (at != null && placed.containsKey(a.id())) {
                    rlStarts.add(seconds(at, placed.get(a.id())));
                }
            } else {
                swcs++;
                if (at != null && finished.containsKey(a.id())) {
                    swcDone.add(seconds(at, finished.get(a.id())));
                }
            }
        }
        return new Figures(policy, suspend, rls, rejected, mean(rlStarts), percentile(rlStarts, 0.95), swcs,
                swcDone.size(), mean(swcDone), r.figures().allocatedSeconds() / 3600, suspensions, moved, r.failed());
    }

    /** The master's job of an application: {@code j3} of {@code j3.rl2}. */
    private static String job(String app) {
        int dot = app.indexOf('.');
        return dot < 0 ? app : app.substring(0, dot);
    }

    private static double seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis() / 1000.0);
    }

    private static double mean(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    private static double percentile(List<Double> xs, double q) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = xs.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }

    static String line(Figures f) {
        return String.format(Locale.ROOT, "RLs %d, rejected %.1f%%; RL start %.2f s (p95 %.2f); word counts %d of %d "
                        + "finished, completion %.1f s; node-hours %.3f; suspensions %d, components moved %d, "
                        + "applications failed %d", f.rls(), f.rejectedPercent(), f.rlStartMean(), f.rlStartP95(),
                f.swcsFinished(), f.swcs(), f.swcCompletionMean(), f.nodeHours(), f.suspensions(), f.moved(), f.failed());
    }

    static void print(List<Figures> all, PrintStream o) {
        o.printf("%n| policy | suspension | RLs | RL rejected %% | RL start s (p95) | SWC completion s | SWCs finished "
                + "| node-hours | suspensions | moved |%n|---|---|---|---|---|---|---|---|---|---|%n");
        for (Figures f : all) {
            o.printf(Locale.ROOT, "| %s | %s | %d | %.1f | %.2f (%.2f) | %.1f | %d of %d | %.3f | %d | %d |%n", f.policy(),
                    f.suspend() == 0 ? "none (today)" : "k = " + f.suspend(), f.rls(), f.rejectedPercent(),
                    f.rlStartMean(), f.rlStartP95(), f.swcCompletionMean(), f.swcsFinished(), f.swcs(), f.nodeHours(),
                    f.suspensions(), f.moved());
        }
        for (Figures with : all) {
            if (with.suspend() == 0) {
                continue;
            }
            all.stream().filter(f -> f.suspend() == 0 && f.policy().equals(with.policy())).findFirst().ifPresent(today ->
                    o.printf(Locale.ROOT, "%s: RL rejections %.2fx of today's, SWC completion %.2fx, node-hours %.2fx "
                                    + "(goal: rejections <= 0.5x, completion <= 1.2x at the same node-hours)%n",
                            with.policy(), ratio(with.rejectedPercent(), today.rejectedPercent()),
                            ratio(with.swcCompletionMean(), today.swcCompletionMean()),
                            ratio(with.nodeHours(), today.nodeHours())));
        }
    }

    private static double ratio(double a, double b) {
        return b == 0 ? Double.NaN : a / b;
    }

    static void write(List<Figures> all, Path out) throws IOException {
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder("policy,suspend,rls,rls_rejected,rl_rejected_percent,rl_start_mean_s,"
                + "rl_start_p95_s,swcs,swcs_finished,swc_completion_mean_s,node_hours,suspensions,moved,failed\n");
        for (Figures f : all) {
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%.2f,%.3f,%.3f,%d,%d,%.2f,%.4f,%d,%d,%d%n", f.policy(),
                    f.suspend(), f.rls(), f.rlsRejected(), f.rejectedPercent(), f.rlStartMean(), f.rlStartP95(),
                    f.swcs(), f.swcsFinished(), f.swcCompletionMean(), f.nodeHours(), f.suspensions(), f.moved(),
                    f.failed()));
        }
        Files.writeString(out.resolve("testbed-suspension.csv"), csv);
    }
}
