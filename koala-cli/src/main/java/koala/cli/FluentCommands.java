package koala.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import koala.common.json.Json;
import koala.common.time.Poll;
import koala.fluent.client.FluentClient;
import koala.fluent.client.FluentJdf;
import koala.fluent.client.JobFile;
import koala.fluent.client.MetricsSummary;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.FluentMessages.MetricsSample;
import koala.fluent.wire.FluentMessages.WorkerView;
import koala.grid.Accounts;
import koala.grid.KoalaHome;
import koala.http.ApiException;
import koala.provisioning.PolicyKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code koala fluent ...}: the reference framework's instances, and jobs for them. */
@Command(name = "fluent", mixinStandardHelpOptions = true,
        description = {"The reference framework (FLUENT-like): a master that places applications, DeviceManager "
                + "workers that run them, resized by KOALA. Deploy an instance, submit job files to it, watch it.",
                "Job file: one application per line, e.g. 'rl count=3 duration=20s cpu=40 loadPeriod=5s' or "
                        + "'swc n=2 file=words.txt duration=10s'; # starts a comment."},
        subcommands = {FluentCommands.Deploy.class, FluentCommands.Submit.class, FluentCommands.Status.class,
                FluentCommands.Metrics.class})
public final class FluentCommands {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /** The provisioning policies' names, for {@code --provisioning}'s help. */
    static final class PolicyNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return PolicyKind.shortNames().iterator();
        }
    }

    /** The instance a command is about, and the grid to find its master in. */
    static final class Instance {
        @Mixin
        GridOptions grid;

        @Option(names = "--instance", required = true, paramLabel = "ID", description = "the framework instance")
        long id;

        /** The master, called with the instance's token from the runner's state file (the submitter's). */
        FluentClient master() {
            koala.api.scheduler.FrameworkView f = grid.client().framework(id);
            unreachableMaster(grid, f).ifPresent(why -> {
                throw new ApiException(409, why);
            });
            return FluentClient.of(grid.client(), id, token(f));
        }
    }

    /**
     * Instance {@code f}'s token, from the state file its runner registered: its owner's, whoever asks
     * (an admin acting on a user's instance reads the user's file, not their own directory).
     */
    static String token(koala.api.scheduler.FrameworkView f) {
        return RunnerLaunch.token(FrameworkCommands.One.runnerFile(f), f.id());
    }

    /**
     * Why this host cannot call instance {@code f}'s master, if it cannot: it runs on a remote site,
     * whose compute nodes only that site's head node reaches (the scheduler's relay carries the
     * nodes' calls out, not calls in).
     */
    static Optional<String> unreachableMaster(GridOptions grid, koala.api.scheduler.FrameworkView f) {
        long id = f.id();
        if (f.master() == null || f.master().node() == null) {
            return Optional.empty();
        }
        Optional<String> site = grid.client().heldNow(id).nodes().stream().filter(n -> n.id().equals(f.master().node()))
                .map(koala.api.scheduler.NodeView::site).findFirst();
        return site.filter(s -> grid.grid().sites().stream().anyMatch(c -> c.name().equals(s) && c.remote()))
                .map(s -> "the master of instance " + id + " serves at " + f.master().address() + " on " + s
                        + ", a remote site whose compute nodes only its head node reaches: this host cannot call it. "
                        + "Submit from " + s + "'s head node (with the token in the runner's state file), or deploy "
                        + "the instance with --site naming a local site");
    }

    /**
     * Where the site account's instances' JDFs, input files and metrics go ({@code ~koala/koala-fluent}):
     * the demo's and the testbed experiments', which act for that account.
     */
    public static Path dir() throws IOException {
        return dir(pilotAccount());
    }

    /**
     * Where {@code owner}'s instances' JDFs, input files and metrics go: {@code ~OWNER/koala-fluent},
     * which every compute node of a local site sees and the owner's pilots (run as the owner) write.
     */
    static Path dir(String owner) throws IOException {
        return Accounts.directoryOf(owner, "koala-fluent");
    }

    /**
     * Whose instance a command deploys: the user it acts for ({@code --as}), else the caller; root
     * owns none, so root without {@code --as} is taken as acting for the site account (the scheduler
     * refuses root's own submits, as it always has).
     */
    static String owner(GridOptions grid) {
        String as = grid.actingFor != null ? grid.actingFor : System.getenv("KOALA_AS");
        if (as != null && !as.isBlank()) {
            return as.strip();
        }
        String me = System.getProperty("user.name");
        return "root".equals(me) ? pilotAccount() : me;
    }

    private static String pilotAccount() {
        Path grid = KoalaHome.gridConfig();
        if (!Files.isReadable(grid)) {
            return "koala";
        }
        return koala.grid.GridConfig.load(grid).sites().stream().filter(s -> !s.remote())
                .map(koala.grid.SiteConfig::agentUser).findFirst().orElse("koala");
    }

    /**
     * Writes an instance's JDF under {@link #dir()}; its entities run from a published copy of this
     * class path. More initial workers than the grid's largest cluster holds are split over several
     * worker components, since a component must fit in one cluster.
     */
    public static Path writeJdf(String name, String policy, int workers, int fMax, String settings, int slots, String site)
            throws IOException {
        return writeJdf(name, policy, workers, fMax, settings, slots, site, 0, dir());
    }

    /** As {@link #writeJdf(String, String, int, int, String, int, String)}, its master suspending word counts up to {@code suspend} times each. */
    public static Path writeJdf(String name, String policy, int workers, int fMax, String settings, int slots, String site,
                                int suspend) throws IOException {
        return writeJdf(name, policy, workers, fMax, settings, slots, site, suspend, dir());
    }

    /** As {@link #writeJdf(String, String, int, int, String, int, String, int)}, under {@code dir}. */
    static Path writeJdf(String name, String policy, int workers, int fMax, String settings, int slots, String site,
                         int suspend, Path dir) throws IOException {
        String text = jdfText(name, policy, workers, fMax, settings, slots, site, suspend, dir);
        Path file = dir.resolve(name + "-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(ZoneId.systemDefault()).format(InstantSource.system().instant()) + ".jdf");
        Files.writeString(file, text);
        return file;
    }

    /**
     * The text of an instance's JDF, the master writing its metrics under {@code logDir}; writes
     * nothing under {@link #dir()} (the published class path it names is shared by every process).
     */
    static String jdfText(String name, String policy, int workers, int fMax, String settings, int slots, String site,
                          int suspend, Path logDir) {
        // the entities run on KOALA's copy of its jars on each site: the launcher there fills in Java and class path
        return new FluentJdf(name, policy, workers, fMax, settings, slots, site, logDir, null, List.of(), suspend)
                .text(largestCluster());
    }

    private static int largestCluster() {
        Path grid = KoalaHome.gridConfig();
        if (!Files.isReadable(grid)) {
            return Integer.MAX_VALUE;
        }
        return koala.grid.GridConfig.load(grid).nodeCounts().values().stream().mapToInt(Integer::intValue).max()
                .orElse(Integer.MAX_VALUE);
    }

    @Command(name = "deploy", mixinStandardHelpOptions = true,
            description = "Start an instance of the reference framework: writes its JDF (~USER/koala-fluent/, USER being "
                    + "you or whom you act for with --as) and submits it like 'koala submit'. The master writes "
                    + "metrics.csv, workers.csv and events.log to ~USER/koala-fluent/instance-ID/ (homes are seen by "
                    + "the nodes, where the pilots run as USER).")
    static final class Deploy implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Option(names = "--provisioning", defaultValue = "ondemand", completionCandidates = PolicyNames.class,
                description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
        String policy;

        @Option(names = "--workers", description = "initial workers (default: 0 for ondemand, 2 otherwise)")
        Integer workers;

        @Option(names = "--fmax", defaultValue = "8", description = "F_max, the most workers (default: ${DEFAULT-VALUE})")
        int fMax;

        @Option(names = "--slots", defaultValue = "4", description = "slots per worker (default: ${DEFAULT-VALUE})")
        int slots;

        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "another provisioning attribute, e.g. "
                + "tIdle=10, samplePeriod=2, uMin=20 (repeatable)")
        List<String> set = List.of();

        @Option(names = "--site", description = "the master's site (default: KOALA chooses)")
        String site;

        @Option(names = "--suspend", paramLabel = "K", defaultValue = "0", description = "an RL that finds no idle worker "
                + "suspends the word counts of a worker running only word counts, each at most K times, and runs there; "
                + "suspended word counts resume or move to free slots, and such a worker yields its word counts when the "
                + "grid takes workers back (default: ${DEFAULT-VALUE}, never; see docs/suspension.md)")
        int suspend;

        @Option(names = "--name", defaultValue = "fluent", description = "the instance's name (default: ${DEFAULT-VALUE})")
        String name;

        @Option(names = "--print-jdf", description = "print the JDF and stop")
        boolean print;

        @Override
        public Integer call() throws IOException {
            StringBuilder settings = new StringBuilder();
            for (String kv : set) {
                String[] parts = kv.split("=", 2);
                if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                    System.err.println("koala: --set " + kv + ": write KEY=VALUE, e.g. tIdle=10");
                    return Koala.BAD_INPUT;
                }
                settings.append("(").append(parts[0].trim()).append(" = ").append(parts[1].trim()).append(")");
            }
            if (suspend < 0) {
                System.err.println("koala: --suspend " + suspend + ": write 0 (never) or how often one word count may be "
                        + "suspended, e.g. 3");
                return Koala.BAD_INPUT;
            }
            int initial = workers != null ? workers : policy.equals(PolicyKind.ONDEMAND.shortName()) ? 0 : 2;
            String owner = owner(grid);
            if (print) { // print only: no JDF file, no directory made
                System.out.print(jdfText(name + "-" + policy, policy, initial, fMax, settings.toString(), slots, site, suspend,
                        Accounts.home(owner).orElse(Path.of("/home", owner)).resolve("koala-fluent")));
                return 0;
            }
            koala.api.scheduler.SchedulerClient client = grid.client();
            java.util.Optional<String> notYours = JobCommands.ownsNoInstance(RunnerLaunch.submitter(), client);
            if (notYours.isPresent()) {
                System.err.println("koala: " + notYours.get());
                return Koala.FAILURE;
            }
            Path dir;
            try {
                dir = dir(owner);
            } catch (java.io.UncheckedIOException | koala.grid.ConfigException e) {
                System.err.println("koala: " + e.getMessage() + ": the instance's files go to ~" + owner
                        + "/koala-fluent, which " + owner + " must be able to make (the nodes see homes)");
                return Koala.FAILURE;
            }
            Path jdf = writeJdf(name + "-" + policy, policy, initial, fMax, settings.toString(), slots, site, suspend, dir);
            System.out.println("JDF " + jdf);
            return JobCommands.launchFramework(jdf, grid, client, false);
        }
    }

    @Command(name = "submit", mixinStandardHelpOptions = true,
            description = "Submit a job file to an instance's master (found through the FrameworkJobManager); "
                    + "reports each application accepted, queued or rejected.")
    static final class Submit implements Callable<Integer> {
        @Mixin
        Instance instance;

        @Parameters(paramLabel = "JOB-FILE", description = "the job file")
        Path file;

        @Option(names = "--wait", description = "wait until every application has ended and show the results")
        boolean await;

        @Option(names = "--json", description = "print the reply as JSON")
        boolean json;

        @Override
        public Integer call() throws IOException {
            if (!Files.isReadable(file)) {
                System.err.println("koala: " + file + ": no such readable file");
                return Koala.BAD_INPUT;
            }
            try {
                var job = JobFile.parse(file.toString(), Files.readString(file),
                        file.toAbsolutePath().getParent());
                FluentClient master = instance.master().awaitServing(Duration.ofSeconds(30));
                JobReply reply = master.submit(job);
                if (await) {
                    reply = awaitEnd(master, reply.job(), reply.grow());
                }
                if (json) {
                    System.out.println(Json.pretty(reply));
                } else {
                    print(reply);
                }
                return reply.apps().stream().anyMatch(a -> a.state().equals("FAILED")) ? Koala.FAILURE : 0;
            } catch (JobFile.JobFileException e) {
                System.err.println(e.getMessage());
                return Koala.BAD_INPUT;
            } catch (ApiException e) {
                return JobCommands.refused(e);
            }
        }

        static JobReply awaitEnd(FluentClient master, String job, String grow) {
            JobReply[] latest = new JobReply[1];
            new Poll(InstantSource.system(), Duration.ofSeconds(1)).until(() -> {
                latest[0] = master.job(job);
                return latest[0].apps().stream().allMatch(a -> List.of("FINISHED", "FAILED", "REJECTED")
                        .contains(a.state()));
            }, Duration.ofHours(2));
            return new JobReply(job, latest[0].apps(), grow);
        }

        static void print(JobReply reply) {
            System.out.printf("job %s: %d placed, %d queued, %d rejected%n", reply.job(), reply.count("PLACED"),
                    reply.count("QUEUED"), reply.count("REJECTED"));
            if (reply.grow() != null) {
                System.out.println("  " + reply.grow());
            }
            for (AppReply a : reply.apps()) {
                System.out.printf("  %-10s %-9s %-9s %s%n", a.id(), a.verdict(), a.state(), a.result().isEmpty()
                        ? a.reason() : result(a));
            }
        }

        static String result(AppReply a) {
            if (a.result().containsKey("check")) {
                return "counted " + a.result().get("words") + " words, " + a.result().get("distinct") + " distinct: "
                        + a.result().get("check") + "; top " + a.result().get("top");
            }
            return a.result().get("frames") + " frames in " + a.result().get("seconds") + " s, mean load "
                    + a.result().get("meanLoadPercent") + "%";
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "An instance as its master sees it: workers and what runs on them, the queue, the "
                    + "counters and the latest decisions.")
    static final class Status implements Callable<Integer> {
        @Mixin
        Instance instance;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            return JobCommands.show(json, () -> instance.master().status(), Status::print);
        }

        static void print(MasterStatus s) {
            System.out.printf("instance %d: %s, t_idle %.1f s, %d slots per worker%n", s.instance(), s.policy(),
                    s.tIdleMillis() / 1000.0, s.slotsPerWorker());
            System.out.printf("  %-10s %-7s %-20s %s%n", "WORKER", "SLOTS", "IDLE SINCE", "RUNNING");
            for (WorkerView w : s.workers()) {
                System.out.printf("  %-10s %d/%-5d %-20s %s%n", w.node(), w.usedSlots(), w.slots(),
                        w.idleSince() == null ? "-" : TIME.format(w.idleSince()), String.join(", ", w.running()));
            }
            System.out.println("  queue: " + (s.queue().isEmpty() ? "empty" : String.join(", ", s.queue())));
            System.out.println("  " + s.counters());
            s.events().subList(Math.max(0, s.events().size() - 10), s.events().size())
                    .forEach(e -> System.out.println("  " + e));
        }
    }

    @Command(name = "metrics", mixinStandardHelpOptions = true,
            description = "An instance's metrics: allocated and busy workers and their CPU over time, applications "
                    + "accepted, queued and rejected, each worker's busy and idle time, and the summary.")
    static final class Metrics implements Callable<Integer> {
        @Mixin
        Instance instance;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            return JobCommands.show(json, () -> instance.master().metrics(), Metrics::print);
        }

        static void print(MetricsReport report) {
            System.out.printf("  %-8s %9s %4s %5s %8s %6s %8s%n", "TIME", "ALLOCATED", "BUSY", "CPU", "ACCEPTED",
                    "QUEUED", "REJECTED");
            List<MetricsSample> samples = report.samples();
            int every = Math.max(1, samples.size() / 30);
            for (int i = 0; i < samples.size(); i += every) {
                MetricsSample s = samples.get(i);
                System.out.printf(Locale.ROOT, "  %-8s %9d %4d %4.0f%% %8d %6d %8d%n", TIME.format(s.at()),
                        s.allocated(), s.busy(), s.cpuPercent(), s.accepted(), s.queued(), s.rejected());
            }
            report.workerSeconds().forEach((w, t) -> System.out.printf(Locale.ROOT,
                    "  worker %-10s busy %6.1f s, idle %6.1f s%n", w, t[0], t[1]));
            MetricsSummary.of(report).lines().forEach(l -> System.out.println("  " + l));
        }
    }
}
