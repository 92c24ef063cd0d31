package koala.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import koala.api.scheduler.SchedulerClient;
import koala.common.time.Poll;
import koala.grid.Accounts;
import koala.grid.GridConfig;
import koala.grid.SiteConfig;
import koala.testbed.Shell;
import koala.testbed.TestbedException;

/**
 * The command line's cost per call: {@code bin/koala submit one.jdf} against a plain {@code qsub}
 * of a trivial job on a local site, alternating, in one run. Both run as the site's job account —
 * an ordinary user, as a grid's users are, and the one SGE takes jobs from on the testbed — through
 * the same {@code runuser} and cell environment, and each is timed from its process's start to its
 * exit: what a user's loop of submits pays per job. The KOALA jobs are real (one node running
 * {@code /bin/true}) and go to the running scheduler; so do the {@code qsub} jobs to the cell.
 * Each call starts once the previous call's job has ended (see {@link #settle}). Last, one call
 * submits as many files as there were runs, the way to submit many jobs.
 */
public final class CliLatencyBenchmark {
    /**
     * Medians of the single calls in milliseconds, and the one call of {@code batch} files; {@code stages}:
     * each stage's own median over the submits ({@link Stage}), empty when a call did not print them.
     */
    public record Result(String site, int runs, double submit, double qsub, int batch, double batchCall,
                         Map<Stage, Double> stages) {
        public double ratio() {
            return submit / qsub;
        }

        public double batchPerJob() {
            return batchCall / batch;
        }
    }

    /**
     * Where one {@code bin/koala submit} spends its time, from the stamps the command prints with
     * {@code KOALA_TIMING} set ({@code koala.cli.CallTiming}) and this benchmark's own start and end
     * of the call.
     */
    public enum Stage {
        RUNUSER("runuser, up to the launcher's start"),
        LAUNCHER("the launcher script (bin/koala)"),
        JVM("JVM start (exec -> main)"),
        PARSE("arguments, grid file, JDF (main -> request)"),
        ANSWER("the scheduler's answer (request -> answer)"),
        EXIT("output and exit (answer -> process ended)");

        public final String what;

        Stage(String what) {
            this.what = what;
        }

        /**
         * Each stage of one call in milliseconds, from its {@code koala-timing} line in {@code err};
         * empty when there is none or it lacks a stamp.
         */
        static Optional<Map<Stage, Double>> of(Instant start, Instant end, String err) {
            Map<String, Long> at = new HashMap<>();
            err.lines().filter(l -> l.startsWith("koala-timing ")).findFirst().ifPresent(line -> {
                for (String field : line.substring("koala-timing ".length()).split(" ")) {
                    String[] kv = field.split("=", 2);
                    if (kv.length == 2 && kv[1].matches("[0-9]{1,18}")) {
                        at.putIfAbsent(kv[0], Long.parseLong(kv[1]));
                    }
                }
            });
            List<String> order = List.of("launched", "exec", "main", "sent", "answered");
            if (!at.keySet().containsAll(order)) {
                return Optional.empty();
            }
            long[] stamps = {micros(start), at.get("launched"), at.get("exec"), at.get("main"), at.get("sent"),
                    at.get("answered"), micros(end)};
            Map<Stage, Double> stages = new EnumMap<>(Stage.class);
            for (Stage stage : values()) {
                stages.put(stage, (stamps[stage.ordinal() + 1] - stamps[stage.ordinal()]) / 1e3);
            }
            return Optional.of(stages);
        }

        private static long micros(Instant t) {
            return t.getEpochSecond() * 1_000_000 + t.getNano() / 1_000;
        }
    }

    static final String JDF = "(* bench cli: one node, nothing to do *)\n&(name = bench-cli)(executable = /bin/true)\n";

    private final SiteConfig site;
    private final Path gridConfig;
    private final SchedulerClient scheduler;
    private final Runnable settle;
    private final Path launcher;
    private final InstantSource clock;
    private final PrintStream out;

    public CliLatencyBenchmark(GridConfig grid, String siteName, Path launcher, InstantSource clock, PrintStream out) {
        this(grid, siteName, launcher, clock, out, null);
    }

    /** @param settle what waits before each timed call (null: until the previous call's job has ended) */
    CliLatencyBenchmark(GridConfig grid, String siteName, Path launcher, InstantSource clock, PrintStream out,
                        Runnable settle) {
        this.site = siteName == null ? grid.sites().stream().filter(s -> s.ssh().isEmpty()).findFirst()
                .orElseThrow(() -> new TestbedException("no local site in " + grid.file())) : grid.site(siteName);
        if (site.ssh().isPresent()) {
            throw new TestbedException(site.name() + " is a remote site: its users submit on its head node, not "
                    + "where bin/koala runs; choose a local site");
        }
        this.gridConfig = grid.file();
        this.scheduler = new SchedulerClient(grid.schedulerAddress());
        this.settle = settle;
        this.launcher = launcher;
        this.clock = clock;
        this.out = out;
    }

    public Result run(int runs, int warmup) {
        Path dir = Accounts.directoryOf(site.agentUser(), "koala-bench-cli-" + Long.toHexString(System.nanoTime()));
        try {
            Path jdf = Files.writeString(dir.resolve("one.jdf"), JDF);
            Shell user = Shell.root().with(site.cell().variables()).as(site.agentUser());
            Map<String, String> timed = new LinkedHashMap<>(site.cell().variables());
            timed.put("KOALA_TIMING", "1");
            Shell userTimed = Shell.root().with(timed).as(site.agentUser());
            List<String> submit = List.of(launcher.toString(), "submit", "--config", gridConfig.toString(), jdf.toString());
            List<String> qsub = List.of(site.cell().command("qsub").toString(), "-b", "y", "-N", "bench-qsub", "-o",
                    "/dev/null", "-j", "y", "/bin/true");
            out.printf("site %s, as user %s; %d warm-up and %d measured calls of each, alternating%n", site.name(),
                    site.agentUser(), warmup, runs);
            List<Double> submits = new ArrayList<>();
            List<Double> qsubs = new ArrayList<>();
            Map<Stage, List<Double>> stages = new EnumMap<>(Stage.class);
            boolean everyCallStaged = true;
            for (int i = 0; i < warmup + runs; i++) {
                settle(user);
                Timed s = timed(userTimed, submit);
                settle(user);
                double q = timed(user, qsub).millis();
                if (i >= warmup) {
                    submits.add(s.millis());
                    qsubs.add(q);
                    out.printf("  call %2d  bin/koala submit %6.0f ms   qsub %6.0f ms%s%n", i - warmup + 1, s.millis(),
                            q, s.stages().map(CliLatencyBenchmark::line).orElse(""));
                    everyCallStaged &= s.stages().isPresent();
                    s.stages().ifPresent(st -> st.forEach((k, v) -> stages.computeIfAbsent(k, x -> new ArrayList<>())
                            .add(v)));
                }
            }
            List<String> batch = new ArrayList<>(submit.subList(0, submit.size() - 1));
            batch.addAll(Collections.nCopies(runs, jdf.toString()));
            double batchCall = timed(user, batch).millis();
            Map<Stage, Double> medians = new EnumMap<>(Stage.class);
            if (everyCallStaged) {
                stages.forEach((k, v) -> medians.put(k, median(v)));
            }
            return new Result(site.name(), runs, median(submits), median(qsubs), runs, batchCall, medians);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(dir);
        }
    }

    /**
     * Waits (untimed) until the previous call's job has ended, in KOALA and in the cell: on the
     * testbed a pilot's JVM runs on the same cores as the next call, which it would slow down; on
     * a grid it runs on a compute node, not the head node where users type their submits.
     */
    private void settle(Shell user) {
        if (settle != null) {
            settle.run();
            return;
        }
        boolean quiet = new Poll(InstantSource.system(), Duration.ofMillis(100)).until(() -> scheduler.jobs().stream()
                .noneMatch(j -> !j.ended() && j.name().equals("bench-cli"))
                && user.run(site.cell().command("qstat").toString(), "-u", site.agentUser()).out().isBlank(),
                Duration.ofSeconds(60));
        if (!quiet) {
            out.println("  (the previous call's job has not ended after 60 s; measuring anyway)");
        }
    }

    /** One call: milliseconds from its start to its exit, and its stages if it printed them. */
    private record Timed(double millis, Optional<Map<Stage, Double>> stages) {
    }

    /** {@code command} run and timed; a failure is an exception with what it said. */
    private Timed timed(Shell user, List<String> command) {
        Instant start = clock.instant();
        Shell.Result result = user.run(command, line -> { }).check();
        Instant end = clock.instant();
        return new Timed(Duration.between(start, end).toNanos() / 1e6, Stage.of(start, end, result.err()));
    }

    /** A call's stages on its line: runuser, launcher, JVM, parse, answer, exit. */
    private static String line(Map<Stage, Double> stages) {
        StringBuilder b = new StringBuilder("   (");
        stages.values().forEach(v -> b.append(b.length() > 4 ? " + " : "").append(Math.round(v)));
        return b.append(")").toString();
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
            Files.delete(dir);
        } catch (IOException e) {
            // a left-over directory of a few bytes in the job account's home: not worth failing the run for
        }
    }
}
