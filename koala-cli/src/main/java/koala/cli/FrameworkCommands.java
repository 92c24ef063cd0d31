package koala.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import koala.api.runner.RunnerMessages;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.TransitionView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The FrameworkJobManager's registry as users read it. */
final class FrameworkCommands {
    private FrameworkCommands() {
    }

    private static final java.time.format.DateTimeFormatter TIME = java.time.format.DateTimeFormatter
            .ofPattern("HH:mm:ss").withZone(java.time.ZoneId.systemDefault());

    static String roles(FrameworkView f) {
        return f.nodesPerRole().entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                .collect(Collectors.joining(", "));
    }

    @Command(name = "frameworks", mixinStandardHelpOptions = true,
            description = "Every framework instance the FrameworkJobManager knows: policy, state, nodes per role, "
                    + "sites, where its master is, and its place in the shared grid: the worker nodes it holds and uses "
                    + "(busy or starting), the "
                    + "share the grid's arbitration policy holds it to (- under fcfs), its weighted max-min fair "
                    + "share, and why nodes were last taken back from it.")
    static final class All implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            return JobCommands.show(json, () -> grid.client().frameworks(), All::table);
        }

        private static void table(List<FrameworkView> all) {
            System.out.printf("%-5s %-16s %-10s %-9s %-34s %-12s %-22s %-5s %-4s %-5s %-4s %s%n", "ID", "NAME", "POLICY",
                    "STATE", "NODES", "SITES", "MASTER", "HOLDS", "USES", "SHARE", "FAIR", "LAST SHRUNK");
            for (FrameworkView f : all) {
                FrameworkView.ShareLine s = f.share();
                System.out.printf("%-5d %-16s %-10s %-9s %-34s %-12s %-22s %-5s %-4s %-5s %-4s %s%n", f.id(), f.name(),
                        f.policy(), f.state(), roles(f), String.join(",", f.sites()),
                        f.master() == null ? "-" : f.master().address(), s == null ? "-" : s.holds(),
                        s == null ? "-" : s.uses(),
                        s == null || s.share() == null ? "-" : s.share(), s == null ? "-" : s.fairShare(),
                        s == null || s.lastShrunk() == null ? "-" : s.lastShrunk());
            }
        }
    }

    @Command(name = "framework", mixinStandardHelpOptions = true,
            description = "One framework instance: its settings, nodes per role, master, its placement constraints and "
                    + "those its nodes break now, its grows and shrinks; for its submitter, the runner's live view and "
                    + "(the reference framework) each worker's suspended tasks.")
    static final class One implements Callable<Integer> {
        @Mixin
        GridOptions grid;

        @Parameters(paramLabel = "ID", description = "the instance's id")
        long id;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Override
        public Integer call() {
            return JobCommands.show(json, () -> grid.client().framework(id), One::print);
        }

        private static void print(FrameworkView f) {
            System.out.printf("framework %d  %s  (%s, runner %s)%n", f.id(), f.name(), f.policy(), f.runner());
            System.out.printf("state    %s on %s%n", f.state(), String.join(", ", f.sites()));
            System.out.printf("master   %s%n", f.master() == null ? "not yet" : f.master().address() + " (node "
                    + f.master().node() + ")");
            System.out.printf("nodes    %s%n", roles(f).isEmpty() ? "none" : roles(f));
            sizes(f).ifPresent(sizes -> System.out.println("per node " + sizes));
            if (f.share() != null) {
                FrameworkView.ShareLine s = f.share();
                System.out.printf("share    holds %d worker nodes, %d busy or starting; %s; fair share %d%n", s.holds(),
                        s.uses(), s.why(), s.fairShare());
                System.out.printf("shrunk   %s%n", s.lastShrunk() == null ? "never" : s.lastShrunk());
            }
            System.out.println("settings " + f.parameters().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(" ")));
            constraints(f).forEach(System.out::println);
            System.out.println("history");
            for (TransitionView t : f.history()) {
                System.out.printf("  %s  %-15s %s%n", t.at(), t.event(), t.reason() == null ? "" : t.reason());
            }
            if (!f.state().equals("RUNNING")) {
                return;
            }
            RunnerLaunch.Live live = RunnerLaunch.status(runnerFile(f));
            if (live.status() != null) {
                live(live.status());
                masterStatus(f).ifPresent(m -> suspended(m).forEach(System.out::println));
            } else {
                System.out.println("runner   (" + live.why() + ")");
            }
        }

        /**
         * What each node of a role asks of its host, for the roles that ask for any: {@code worker 4 cores, 8G
         * memory, 1 GPU; master 2 cores}; memory only when the role gives it, GPUs only when it asks one.
         */
        static java.util.Optional<String> sizes(FrameworkView f) {
            if (f.roleSizes().isEmpty()) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(f.roleSizes().stream().map(r -> r.role() + " " + r.cores()
                    + (r.cores() == 1 ? " core" : " cores")
                    + (r.memoryMiB() > 0 ? ", " + koala.jdf.NodeResources.size(r.memoryMiB()) + " memory" : "")
                    + (r.gpus() > 0 ? ", " + r.gpus() + (r.gpus() == 1 ? " GPU" : " GPUs") : ""))
                    .collect(Collectors.joining("; ")));
        }

        /**
         * The instance's placement constraints, role by role, and those where its nodes are breaks now
         * (a soft one nothing else kept, one broken after the fact). A constraint over a group finer than the
         * site (host, rack) is kept per host: the scheduler chooses each node's host and pins its pilot there.
         */
        static List<String> constraints(FrameworkView f) {
            if (f.constraints().isEmpty() && f.brokenNow().isEmpty()) {
                return List.of("constraints none");
            }
            List<String> out = new java.util.ArrayList<>();
            out.add("constraints");
            for (FrameworkView.ConstraintLine c : f.constraints()) {
                String group;
                try {
                    group = koala.jdf.ConstraintSpec.parse(c.constraint()).group();
                } catch (IllegalArgumentException e) {
                    group = "site";
                }
                boolean finer = !group.equals("site") && !group.equals("network");
                out.add(String.format("  %-13s %-44s %s%s", c.role(), c.constraint(), c.hard() ? "hard" : "soft",
                        finer ? ", nodes pinned to hosts" : ""));
            }
            out.add(f.brokenNow().isEmpty() ? "  broken now: none" : "  broken now:");
            f.brokenNow().forEach(b -> out.add("    " + b));
            return out;
        }

        /**
         * The reference framework's master's status (its workers' suspended tasks), asked once with the
         * instance's token, for at most 2 s; empty when it has none to give (another framework's master, a
         * master this host cannot reach, no token here).
         */
        private static java.util.Optional<koala.fluent.wire.FluentMessages.MasterStatus> masterStatus(FrameworkView f) {
            if (f.master() == null || f.master().address() == null) {
                return java.util.Optional.empty();
            }
            try {
                String token = FluentCommands.token(f);
                return java.util.Optional.of(new koala.http.JsonHttpClient(java.net.URI.create("http://"
                        + f.master().address()), java.time.Duration.ofSeconds(2)).withBearer(token)
                        .get("/status", koala.fluent.wire.FluentMessages.MasterStatus.class));
            } catch (RuntimeException e) {
                return java.util.Optional.empty();
            }
        }

        /** Each worker's suspended tasks (batch work paused for a latency-sensitive one), as its master tells them. */
        static List<String> suspended(koala.fluent.wire.FluentMessages.MasterStatus m) {
            List<String> out = new java.util.ArrayList<>();
            int now = m.counters().getOrDefault("suspendedNow", 0);
            out.add("suspended tasks (the master's view): " + (now == 0 && m.workers().stream()
                    .allMatch(w -> w.suspended().isEmpty()) ? "none" : now + " now"));
            for (koala.fluent.wire.FluentMessages.WorkerView w : m.workers()) {
                if (!w.suspended().isEmpty()) {
                    out.add(String.format("  %-10s %s", w.node(), String.join(", ", w.suspended())));
                }
            }
            return out;
        }

        /**
         * Where instance {@code f}'s runner keeps its address and token: the file it registered, in its
         * submitter's KOALA home ({@code ~alice/.koala/runners} for alice's, whoever asks; root's
         * {@code /var/lib/koala/runners} for one root started with {@code --as}). The caller's own
         * runners' directory only when the scheduler knows of no file.
         */
        static Path runnerFile(FrameworkView f) {
            return f.runnerState() != null ? Path.of(f.runnerState())
                    : RunnerLaunch.dir().resolve("runner-" + f.id() + ".json");
        }

        /** What the runner sees now: each entity's state and CPU, its settings, its latest decisions. */
        private static void live(RunnerMessages.Status s) {
            System.out.println("runner   " + s.state() + (s.waiting().isEmpty() ? "" : " (waiting)") + ", policy "
                    + s.policy());
            s.waiting().forEach(w -> System.out.println("  " + w));
            System.out.printf("  %-10s %-18s %-6s %-9s %6s  %-8s  %s%n", "NODE", "ROLE", "SITE", "STATE", "CPU", "HEARD",
                    "WORKER");
            for (RunnerMessages.Entity e : s.entities()) {
                String role = e.role() + (e.role().equals("orchestrator") ? " (hosts " + e.orchestrators() + ")" : "");
                String worker = !e.role().equals("worker") || !e.state().equals("RUNNING") ? "-"
                        : e.idleSince() == null ? "busy" : "idle since " + TIME.format(e.idleSince());
                String heard = e.lastBeat() == null ? "-" : TIME.format(e.lastBeat());
                System.out.printf("  %-10s %-18s %-6s %-9s %5.1f%%  %-8s  %s%n", e.node(), role, e.site(), e.state(),
                        e.cpuPercent(), heard, worker);
            }
            System.out.println("  settings: " + String.join("; ", s.settings()));
            System.out.println("  latest decisions:");
            s.events().subList(Math.max(0, s.events().size() - 10), s.events().size())
                    .forEach(e -> System.out.println("    " + e));
        }
    }
}
