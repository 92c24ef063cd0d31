package koala.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import koala.api.scheduler.SchedulerClient;
import koala.common.time.Poll;
import koala.fluent.client.FluentClient;
import koala.fluent.client.MetricsSummary;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterEvent;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsSample;
import koala.fluent.wire.MasterEventKind;
import koala.http.ApiException;

/**
 * The demo's framework part: an OnDemand instance of the reference framework gets a burst of
 * jobs, grows for them, rejects what F_max leaves no room for, and shrinks after t_idle — shown
 * live, then summed up.
 */
final class FrameworkDemo {
    private static final Set<MasterEventKind> QUIET = EnumSet.of(MasterEventKind.STARTED, MasterEventKind.JOB_ARRIVED,
            MasterEventKind.RESIZE_REPORTED);
    static final int F_MAX = 6;
    static final int T_IDLE = 8;
    private static final Duration LIMIT = Duration.ofMinutes(4);

    private record Burst(Duration at, String name, List<AppRequest> apps) {
    }

    private final SchedulerClient client;
    private final Path gridFile;
    private final InstantSource clock = InstantSource.system();
    private final Map<String, JobReply> replies = new ConcurrentHashMap<>();
    private Instant start;

    FrameworkDemo(SchedulerClient client, Path gridFile) {
        this.client = client;
        this.gridFile = gridFile;
    }

    int run(int firstSection) throws IOException {
        section(firstSection, "An OnDemand instance of the reference framework: a master and an orchestrator node, "
                + "no workers; F_max " + F_MAX + ", t_idle " + T_IDLE + " s");
        Path jdf = FluentCommands.writeJdf("demo", "ondemand", 0, F_MAX, "(tIdle = " + T_IDLE + ")(samplePeriod = 2)",
                4, null);
        RunnerLaunch.Launched launched = RunnerLaunch.start(jdf, gridFile, client);
        System.out.println("  instance " + launched.instance() + ", JDF " + jdf + ", runner log " + launched.log());
        String state = RunnerLaunch.follow(launched, Duration.ofMinutes(2), false);
        if (!state.equals("RUNNING")) {
            System.out.println("  the instance is " + state + "; see " + launched.log());
            return Koala.FAILURE;
        }
        try {
            FluentClient fluent = FluentClient.serving(client, launched.instance(), launched::token,
                    Duration.ofSeconds(60));
            List<Burst> bursts = bursts(words());
            section(firstSection + 1, "A burst of jobs; the master asks its runner for exactly the workers each "
                    + "lacks, and gives back those idle for t_idle");
            bursts.forEach(b -> System.out.printf("  +%2ds  %-13s %s%n", b.at().toSeconds(), b.name(),
                    describe(b.apps())));
            start = clock.instant();
            watch(fluent, submitAll(fluent, bursts), bursts.size());
            section(firstSection + 2, "Summary");
            return summary(fluent, launched.instance());
        } finally {
            try {
                client.closeAllocation(launched.instance());
                launched.awaitExit(Duration.ofSeconds(15));
            } catch (ApiException e) {
                System.out.println("  could not end instance " + launched.instance() + ": " + e.getMessage());
            }
        }
    }

    private static List<Burst> bursts(Path words) {
        AppRequest filter = new AppRequest("rl", 20_000L, 30.0, 4_000L, null, null);
        AppRequest shortFilter = new AppRequest("rl", 12_000L, 30.0, 4_000L, null, null);
        AppRequest count = new AppRequest("swc", 6_000L, null, null, 1, words.toString());
        return List.of(
                new Burst(Duration.ZERO, "filters", List.of(filter, filter, filter)),
                new Burst(Duration.ofSeconds(4), "word-counts", List.of(count, count)),
                new Burst(Duration.ofSeconds(10), "more-filters", IntStream.range(0, 5).mapToObj(i -> shortFilter)
                        .toList()));
    }

    private ScheduledExecutorService submitAll(FluentClient fluent, List<Burst> bursts) {
        ScheduledExecutorService submitter = Executors.newScheduledThreadPool(bursts.size());
        for (Burst b : bursts) {
            submitter.schedule(() -> {
                try {
                    replies.put(b.name(), fluent.submit(new JobRequest(b.name(), b.apps())));
                } catch (ApiException e) {
                    System.out.println("  " + b.name() + " refused: " + e.getMessage());
                    replies.put(b.name(), new JobReply("-", List.of(), e.getMessage()));
                }
            }, b.at().toMillis(), TimeUnit.MILLISECONDS);
        }
        return submitter;
    }

    /** Prints the master's decisions as they come, and every 3 s a line of workers, CPU and counters. */
    private void watch(FluentClient fluent, ScheduledExecutorService submitter, int jobs) {
        int[] seen = {0};
        long[] lastLine = {-3};
        try {
            new Poll(clock, Duration.ofSeconds(1)).until(() -> {
                MasterStatus s = fluent.status();
                List<MasterEvent> events = s.events();
                int from = Math.max(0, Math.min(seen[0], events.size()));
                events.subList(from, events.size()).stream().filter(FrameworkDemo::worthShowing)
                        .forEach(e -> System.out.println("  " + e));
                seen[0] = events.size();
                long second = Duration.between(start, clock.instant()).toSeconds();
                if (second - lastLine[0] >= 3) {
                    lastLine[0] = second;
                    System.out.println(bar(s, second, fluent));
                }
                boolean allIn = replies.size() == jobs;
                boolean ended = s.apps().stream().allMatch(a -> List.of("FINISHED", "FAILED", "REJECTED")
                        .contains(a.state()));
                return allIn && ended && s.workers().isEmpty();
            }, LIMIT);
        } finally {
            submitter.shutdownNow();
        }
    }

    /** The demo shows decisions: not the master's start, the jobs' arrivals (the bursts list them) or what is only reported. */
    private static boolean worthShowing(MasterEvent event) {
        return !QUIET.contains(event.kind());
    }

    private static String bar(MasterStatus s, long second, FluentClient fluent) {
        List<MetricsSample> samples = fluent.metrics().samples();
        double cpu = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).cpuPercent();
        long busy = s.workers().stream().filter(w -> !w.running().isEmpty()).count();
        String cells = "#".repeat((int) busy) + "o".repeat(s.workers().size() - (int) busy)
                + ".".repeat(Math.max(0, F_MAX - s.workers().size()));
        return String.format(Locale.ROOT, "  ---- +%3ds  workers [%s] %d (%d busy)  cpu %3.0f%%  running %d  "
                        + "queued %d  rejected %d", second, cells, s.workers().size(), busy, cpu,
                s.counters().get("running"), s.counters().get("waiting"), s.counters().get("rejected"));
    }

    private int summary(FluentClient fluent, long instance) {
        boolean failed = false;
        for (JobReply reply : replies.values().stream().sorted((a, b) -> a.job().compareTo(b.job())).toList()) {
            if (!reply.job().equals("-")) {
                JobReply now = fluent.job(reply.job());
                FluentCommands.Submit.print(new JobReply(now.job(), now.apps(), reply.grow()));
                failed |= now.apps().stream().anyMatch(a -> a.state().equals("FAILED"));
            }
        }
        List<MetricsSample> samples = fluent.metrics().samples();
        System.out.println("  allocated workers over time: " + spark(samples.stream().map(MetricsSample::allocated)
                .toList()));
        System.out.println("  busy workers over time:      " + spark(samples.stream().map(MetricsSample::busy).toList()));
        MetricsSummary.of(fluent.metrics()).lines().forEach(l -> System.out.println("  " + l));
        hosts(instance);
        System.out.println("  Metrics of instance " + instance + ": bin/koala fluent metrics --instance " + instance
                + " (while it runs) and ~koala/koala-fluent/instance-" + instance + "/");
        System.out.println("  Your own instance: bin/koala fluent deploy --fmax 8 --set tIdle=20, then "
                + "bin/koala fluent submit --instance ID jobs-file (see bin/koala fluent --help)");
        return failed ? Koala.FAILURE : 0;
    }

    /** Which compute hosts the instance's nodes ran on: each node is a host of its own. */
    private void hosts(long instance) {
        java.util.Map<String, java.util.List<String>> byRole = new java.util.TreeMap<>();
        client.job(instance).nodes().stream().filter(n -> n.host() != null).forEach(n -> byRole
                .computeIfAbsent(n.component() == 0 ? "master" : n.component() == 1 ? "orchestrator" : "workers",
                        r -> new ArrayList<>()).add(n.host()));
        long distinct = byRole.values().stream().flatMap(List::stream).distinct().count();
        System.out.println("  compute hosts: " + distinct + " distinct; " + byRole.entrySet().stream()
                .map(e -> e.getKey() + " on " + String.join(", ", new java.util.TreeSet<>(e.getValue())))
                .collect(java.util.stream.Collectors.joining("; ")));
    }

    private static String spark(List<Integer> values) {
        String levels = "_.:-=+*#";
        StringBuilder line = new StringBuilder();
        int every = Math.max(1, values.size() / 60);
        for (int i = 0; i < values.size(); i += every) {
            line.append(levels.charAt(Math.min(levels.length() - 1, values.get(i) * (levels.length() - 1) / F_MAX)));
        }
        return line + "  (0.." + F_MAX + ")";
    }

    private static String describe(List<AppRequest> apps) {
        AppRequest first = apps.get(0);
        return apps.size() + " × " + (first.kind().equals("rl")
                ? "RL video filter, " + first.durationMillis() / 1000 + " s at ~" + first.cpuPercent().intValue() + "% CPU"
                : "SWC word count (2^" + first.n() + " mappers) streaming " + Path.of(first.file()).getFileName()
                + " for " + first.durationMillis() / 1000 + " s");
    }

    /** A real text for the word counts, readable by the pilots' account. */
    private static Path words() throws IOException {
        Path file = FluentCommands.dir().resolve("demo-words.txt");
        Path license = Path.of("/usr/share/common-licenses/GPL-3");
        if (Files.isReadable(license)) {
            Files.copy(license, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } else {
            List<String> lines = new ArrayList<>();
            IntStream.range(0, 2000).forEach(i -> lines.add("line " + i + " of the demo text, word " + i % 97));
            Files.write(file, lines);
        }
        return file;
    }

    private static void section(int number, String title) {
        System.out.println("\n== " + number + ". " + title);
    }
}
