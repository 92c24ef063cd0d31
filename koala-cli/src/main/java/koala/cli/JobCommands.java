package koala.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.api.scheduler.TransitionView;
import koala.auth.Identity;
import koala.auth.SystemAccounts;
import koala.common.json.Json;
import koala.http.ApiException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands of a grid user besides {@link SubmitCommand}: jobs, status, cancel, sites. */
final class JobCommands {
    private JobCommands() {
    }

    /**
     * Asks the scheduler for something and prints it: as JSON with {@code --json}, else as
     * {@code table} prints it; a refusal or an unreachable scheduler is an error message and exit status.
     */
    static <T> int show(boolean json, Supplier<T> fetch, Consumer<T> table) {
        try {
            T value = fetch.get();
            if (json) {
                System.out.println(Json.pretty(value));
            } else {
                table.accept(value);
            }
            return 0;
        } catch (ApiException e) {
            return refused(e);
        }
    }

    /**
     * A framework JDF goes to a runner of its own, which registers the instance and deploys it;
     * follows the initial deployment. 0 once the instance is RUNNING.
     */
    static int launchFramework(Path file, GridOptions grid, SchedulerClient client, boolean json) throws IOException {
        try {
            client.sites();
        } catch (ApiException e) {
            return refused(e);
        }
        RunnerLaunch.Launched launched = RunnerLaunch.start(file, grid.configFile(), client);
        if (!json) {
            System.out.printf("framework instance %d: runner pid %d, RPC %s%n", launched.instance(), launched.pid(),
                    launched.url());
            System.out.printf("  token and address in %s, log %s%n",
                    RunnerLaunch.dir().resolve("runner-" + launched.instance() + ".json"), launched.log());
        }
        String state = RunnerLaunch.follow(launched, Duration.ofMinutes(5), json);
        if (json) {
            System.out.println(Json.pretty(launched.client().status()));
        } else {
            System.out.println("instance " + launched.instance() + " " + state
                    + (state.equals("RUNNING") ? "; see bin/koala framework " + launched.instance()
                    : state.equals("DEPLOYING") ? "; its runner goes on deploying it: see bin/koala framework "
                    + launched.instance() + ", or end it with bin/koala cancel " + launched.instance() : ""));
        }
        return state.equals("RUNNING") ? 0 : Koala.FAILURE;
    }

    /**
     * Why {@code who} may not start a framework instance, if they may not: root or a system account
     * acting for nobody. The scheduler would refuse the runner the instance's allocation, in these
     * words ({@link SystemAccounts#mayNotOwn}); said here before a runner starts (and before a runner
     * directory is made in a system account's home, such as {@code /usr/sbin}). An admin acting for a
     * user ({@code --as USER}) may.
     */
    static Optional<String> ownsNoInstance(Identity who, SchedulerClient client) {
        return SystemAccounts.isSystem(who.uid()) && client.actingFor().isEmpty()
                ? Optional.of(SystemAccounts.mayNotOwn(who.user(), who.uid(), "a framework instance"))
                : Optional.empty();
    }

    static int refused(ApiException e) {
        System.err.println("koala: " + reason(e));
        return status(e);
    }

    /** A refusal as the user reads it; an unreachable scheduler with a hint. */
    static String reason(ApiException e) {
        return e.getMessage() + (unreachable(e) ? " (is the scheduler running? bin/koala scheduler)" : "");
    }

    /** The exit status for a refusal: bad input for what the request got wrong, failure otherwise. */
    static int status(ApiException e) {
        return e.status() == 400 || e.status() == 404 || e.status() == 409 ? Koala.BAD_INPUT : Koala.FAILURE;
    }

    static boolean unreachable(ApiException e) {
        return e.unreached();
    }

    @Command(name = "jobs", mixinStandardHelpOptions = true, description = {"List the jobs the scheduler knows.", "",
            "START is when a waiting job will likely start (the scheduler's estimate, its time of day), '~now' when it "
            + "is being started, 'never' when no site could ever hold it, '?' when nothing the scheduler sees ending "
            + "frees enough for it; 'koala status JOB' says why and gives the range."})
    static final class Jobs implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            return show(json, () -> grid.client().jobs(), Jobs::table);
        }

        private static void table(List<JobView> jobs) {
            System.out.printf("%-6s %-22s %-10s %-10s %-10s %-6s %-6s %s%n", "JOB", "NAME", "OWNER", "KIND", "STATE",
                    "NODES", "START", "WHY WAITING");
            java.time.ZoneId zone = java.time.ZoneId.systemDefault();
            for (JobView j : jobs) {
                System.out.printf("%-6d %-22s %-10s %-10s %-10s %-6d %-6s %s%n", j.id(), j.name(),
                        j.owner() == null ? "-" : j.owner(), j.kind(), j.state(),
                        j.nodes().stream().filter(n -> !n.state().equals("RELEASED")).count(),
                        StartLines.column(j.estimate(), zone), j.waitingBecause() == null ? "" : j.waitingBecause());
            }
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "One job: its state, why it waits and when it will likely start, its nodes and its history.")
    static final class Status implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Parameters(paramLabel = "JOB", description = "the job's id")
        long id;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            return show(json, () -> grid.client().job(id), j -> print(j, new PrintWriter(System.out, true)));
        }

        static void print(JobView j, PrintWriter out) {
            out.printf("job %d  %s  (%s, policy %s, priority %s)%n", j.id(), j.name(), j.kind(), j.policy(),
                    j.priority());
            out.printf("owner  %s%n", j.owner() == null ? "- (from before jobs had owners: only an admin may change it)"
                    : j.owner());
            out.printf("state  %s%s%n", j.state(), j.waitingBecause() == null ? "" : "\nwhy    "
                    + j.waitingBecause());
            if (j.estimate() != null) {
                out.printf("start  %s%n", StartLines.sentence(j.estimate(), java.time.ZoneId.systemDefault()));
            }
            out.printf("tries  %d placement, %d failed claims%n", j.placeTries(), j.claimFailures());
            if (!j.nodes().isEmpty()) {
                out.println("nodes");
                for (NodeView n : j.nodes()) {
                    out.printf("  %-10s %-5s %-9s pilot %-6s %s%s%s%n", n.id(), n.site(), n.state(),
                            n.pilot() == null ? "-" : n.pilot(), n.host() == null ? "" : "on " + n.host(),
                            n.gpus() == null || n.gpus().isEmpty() ? "" : "  GPUs " + n.gpus().stream()
                                    .map(String::valueOf).collect(java.util.stream.Collectors.joining(",")),
                            n.exitStatus() == null ? "" : "  exit " + n.exitStatus());
                }
            }
            out.println("history");
            for (TransitionView t : j.history()) {
                out.printf("  %s  %-9s -> %-9s %-16s %s%n", t.at(), t.from(), t.to(), t.event(),
                        t.reason() == null ? "" : t.reason());
            }
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = {"Cancel jobs: their pilots are killed and their nodes given back.", "",
                    "Each job in turn, as qdel does: one that cannot be cancelled (not found, not yours) is reported "
                    + "and the others still are; an unreachable scheduler ends the call.", "",
                    "Exit status: 0 when every job was cancelled, 2 when one was not found or its state refused it, "
                    + "1 on any other failure (not yours, the scheduler unreachable).", ""})
    static final class Cancel implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Parameters(paramLabel = "JOB", arity = "1..*", description = "the jobs' ids")
        List<Long> ids;

        @Override
        public Integer call() {
            SchedulerClient client = grid.client();
            int worst = 0;
            List<Long> failed = new java.util.ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                try {
                    JobView job = client.cancel(ids.get(i));
                    System.out.printf("job %d %s%n", job.id(), job.state());
                } catch (ApiException e) {
                    int status = refused(e);
                    worst = worst == Koala.FAILURE ? worst : status;
                    failed.add(ids.get(i));
                    if (unreachable(e)) {
                        failed.addAll(ids.subList(i + 1, ids.size()));
                        break;
                    }
                }
            }
            if (!failed.isEmpty() && ids.size() > 1) {
                System.err.printf("koala: %d of %d jobs not cancelled: %s%n", failed.size(), ids.size(),
                        failed.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")));
            }
            return worst;
        }
    }

    @Command(name = "sites", mixinStandardHelpOptions = true,
            description = "Every site as the information service sees it: nodes in all, idle, held by KOALA, used "
                    + "by local users, being claimed; its hosts' cores, memory and GPUs, free/in all (summed from "
                    + "its cell's last snapshot; - where no host reports them); and the health of its agent.")
    static final class Sites implements Callable<Integer> {
        private static final String ROW = "%-6s %-13s %6s %6s %6s %7s %9s %9s %15s %7s  %s%n";

        @Mixin
        GridOptions grid;

        @Option(names = "--json", description = "print JSON (a site's resources as numbers: cores, coresFree, "
                + "memoryMib, memoryFreeMib, gpus, gpusFree, and the hosts that report them)")
        boolean json;

        @Override
        public Integer call() {
            return show(json, () -> grid.client().sites(), sites -> System.out.print(table(sites)));
        }

        static String table(List<SiteStatus> sites) {
            StringBuilder out = new StringBuilder(String.format(java.util.Locale.ROOT, ROW, "SITE", "MANAGER", "NODES",
                    "IDLE", "KOALA", "OTHERS", "CLAIMING", "CORES", "MEMORY", "GPUS", "AGENT"));
            for (SiteStatus s : sites) {
                koala.api.scheduler.SiteResources r = s.resources();
                out.append(String.format(java.util.Locale.ROOT, ROW, s.site(), s.manager() == null ? "-" : s.manager(),
                        s.total(), s.idle(), s.koala(),
                        s.others(), s.claiming(), r == null ? "-" : r.coresFree() + "/" + r.cores(),
                        r == null || r.memoryMib() == null ? "-" : memory(r.memoryFreeMib()) + "/" + memory(r.memoryMib()),
                        r == null ? "-" : r.gpusFree() + "/" + r.gpus(),
                        s.agent().equals("UP") ? "up (seen " + s.seenAt().toString().substring(11, 19) + " UTC)"
                                : "DOWN: " + s.agentReason()));
            }
            return out.toString();
        }

        /** MiB as a person reads them: 512M, 8G, 59.5G (G of 1024 MiB, as the JDF's memory). */
        static String memory(Long mib) {
            if (mib == null) {
                return "?";
            }
            if (mib < 1024) {
                return mib + "M";
            }
            String g = String.format(java.util.Locale.ROOT, "%.1f", mib / 1024.0);
            return (g.endsWith(".0") ? g.substring(0, g.length() - 2) : g) + "G";
        }
    }
}
