package koala.scheduler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;
import koala.arbitration.Arbiter;
import koala.arbitration.Arbitration;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.GridShare;
import koala.arbitration.Share;
import koala.arbitration.ShareDecision;
import koala.arbitration.ShareRule;
import koala.arbitration.TakeBackBook;
import koala.arbitration.Tenant;
import koala.placement.Resources;
import koala.provisioning.Worker;
import koala.scheduler.metrics.GridEvents;
import koala.scheduler.metrics.GridEvents.GrowOutcome;
import koala.scheduler.metrics.GridEvents.ShrinkOutcome;
import koala.scheduler.state.JobEvent;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The scheduler's side of a full grid shared by framework instances: it builds the snapshot the
 * {@link Arbiter} decides on — the KIS's free nodes, each running instance's worker nodes as the
 * scheduler holds them, busy or idle as its runner last reported — asks it on a worker grow and
 * every round period, and carries out its decisions in their order through {@link Grid}. The
 * arbiter's memory ({@link TakeBackBook}) lives here; runners' reports are in memory only (every
 * runner reports each second, so a restarted scheduler has them again at once). A grow pinned to a
 * site is decided within that site, on a snapshot of its free nodes and the instances' workers there,
 * with a book of the site's own (a scope: the grid's is {@code ""}), so that what is taken back for it
 * is taken on that site and counted against the donors' workers there. Runs on the loop.
 */
final class Sharing {
    private static final Logger LOG = LogManager.getLogger(Sharing.class);

    /**
     * A tenant of the grid — one running framework instance — as the scheduler holds it: its claim,
     * its worker nodes and what each of them asks for (its last worker component's {@code cores},
     * {@code memory} and {@code gpus}). {@code tenant}
     * adds what its runner last reported, making the arbiter's {@link Tenant}.
     */
    record HeldTenant(long id, double weight, int minShare, List<String> workers, Resources perWorker) {
        HeldTenant {
            workers = List.copyOf(workers);
            perWorker = perWorker == null ? Resources.NODE : perWorker;
        }

        /** An instance whose workers take a core each. */
        HeldTenant(long id, double weight, int minShare, List<String> workers) {
            this(id, weight, minShare, workers, Resources.NODE);
        }
    }

    /** What sharing needs of the scheduler: the snapshot, and the means to carry decisions out. */
    interface Grid {
        int freeNodes();

        /** The idle nodes of {@code site} now: a grow pinned to it is shared out within it. */
        int freeNodes(String site);

        /**
         * What the hosts of {@code site} (null: the grid's) have in all, which makes a worker's size in the
         * grid's nodes ({@link NodeNeeds#gridNodes}); none known ({@link Resources#NONE}): a worker is as many
         * nodes as it has cores.
         */
        default Resources total(String site) {
            return Resources.NONE;
        }

        /** How many nodes of {@code perNode} fit on what is free of {@code site}'s hosts (null: the grid's) now. */
        default int room(String site, Resources perNode) {
            return site == null ? freeNodes() : freeNodes(site);
        }

        List<HeldTenant> tenants();

        /** The site of the node {@code node}, null when it is not known. */
        String site(String node);

        /** Ends these worker nodes of the instance (their pilots killed), with the reason in its history. */
        void end(long instance, List<String> nodes, JobEvent event, String reason);

        /**
         * Claims {@code nodes} worker nodes for the instance: on free nodes, and what they do not cover
         * on the sites of {@code ended} (nodes just ended for it); the ids. They run {@code asked}, the
         * instance's own grow being decided, or else the instance's own last worker grow: never another
         * instance's. With a {@code site}, on that site only (a grow pinned to it); null for any.
         */
        Granted grant(long instance, int nodes, List<String> ended, String reason,
                      java.util.Optional<koala.api.scheduler.GrowRequest> asked, String site);

        void note(long instance, JobEvent event, String reason);
    }

    /**
     * What a grant claimed: the nodes, and when the hard placement constraints let fewer in than the
     * arbiter granted, why (null when they cost it nothing).
     */
    record Granted(List<String> nodes, koala.placement.PlacementReason limit) {
        Granted {
            nodes = List.copyOf(nodes);
        }

        /** A limit in a user's words: a hard constraint's named as such. */
        static String words(koala.placement.PlacementReason limit) {
            return (limit.kind() == koala.placement.PlacementReason.Kind.HARD_CONSTRAINT ? "placement constraints: " : "")
                    + limit.text();
        }
    }

    /** What a worker grow gets: the nodes claimed now, and why not more. */
    record Outcome(List<String> nodes, String reason) {
    }

    private Arbiter arbiter;
    private final Grid grid;
    private final GridEvents events;
    private final Map<Long, ShareReport> reports = new HashMap<>();
    private final Map<Long, String> lastShrunk = new HashMap<>();
    /** Per instance, the worker nodes ended for arbitration lately, newest last (for its runner). */
    private final Map<Long, java.util.Deque<String>> takenBack = new HashMap<>();
    private static final int TAKEN_BACK_KEPT = 64;
    /** Per scope (the grid, or a site a grow was pinned to: {@link #scope}), the shares the last decision left. */
    private final Map<String, Map<String, Share>> shares = new HashMap<>();
    private final Map<String, Map<String, Share>> fair = new HashMap<>();
    /** Per scope, the arbiter's book: a site's take-backs are counted against that site's workers only. */
    private final Map<String, TakeBackBook> books = new HashMap<>();
    /** Per instance, the site its last worker grow was pinned to (none: the grid): the scope it is shown in. */
    private final Map<Long, String> pinned = new HashMap<>();
    private Instant nextRound = Instant.EPOCH;
    /** Per instance, the grid's nodes one of its workers took at the last decision that saw it (1: a core). */
    private final Map<Long, Integer> sizes = new HashMap<>();

    /** The grid's scope; a site's is its name. */
    private static final String GRID = "";

    /** Where the arbiter's book goes after each decision that changed it, with its scope. */
    private java.util.function.BiConsumer<String, TakeBackBook> keep = (scope, b) -> { };
    /** A site's book as a scheduler before this one left it. */
    private java.util.function.Function<String, TakeBackBook> kept = scope -> TakeBackBook.EMPTY;

    Sharing(ArbitrationSettings settings, Grid grid) {
        this(settings, grid, GridEvents.NONE);
    }

    /** @param events told of each grow answered, each grant and each shrink carried out */
    Sharing(ArbitrationSettings settings, Grid grid, GridEvents events) {
        this.arbiter = new Arbiter(Objects.requireNonNull(settings, "settings"));
        this.grid = grid;
        this.events = events;
    }

    /**
     * Goes on from {@code kept} (a restarted scheduler's: asks pending, nodes owed, recent moves, so
     * that a grace period or a stabilization window outlives a restart), keeping the book through
     * {@code sink} from now on.
     */
    void keepBook(TakeBackBook kept, java.util.function.Consumer<TakeBackBook> sink) {
        keepBooks(List.of(), scope -> scope.equals(GRID) ? kept : TakeBackBook.EMPTY, (scope, b) -> {
            if (scope.equals(GRID)) {
                sink.accept(b);
            }
        });
    }

    /**
     * As {@link #keepBook}, for every scope: the grid's book ({@code ""}) and each of {@code sites}' (those
     * pinned grows were decided in), read back from {@code kept} and kept through {@code sink}.
     */
    void keepBooks(List<String> sites, java.util.function.Function<String, TakeBackBook> kept,
                   java.util.function.BiConsumer<String, TakeBackBook> sink) {
        this.kept = Objects.requireNonNull(kept, "kept");
        this.keep = sink;
        books.clear();
        book(GRID);
        sites.forEach(this::book);
    }

    private TakeBackBook book(String scope) {
        return books.computeIfAbsent(scope, s -> Objects.requireNonNullElse(kept.apply(s), TakeBackBook.EMPTY));
    }

    /** A pinned grow's scope is its site; any other's, the grid. */
    private static String scope(String site) {
        return site == null ? GRID : site;
    }

    /**
     * Decides by {@code settings} from now on, starting with a round at the next tick; the book (asks
     * pending, nodes owed, recent moves) and the runners' reports carry on.
     */
    void retune(ArbitrationSettings settings) {
        if (!settings.equals(arbiter.settings())) {
            arbiter = new Arbiter(settings);
            nextRound = Instant.EPOCH;
            LOG.info("framework instances share a full grid by {} from now on", settings.describe());
        }
    }

    /** Whether grows go through the arbiter: not under fcfs, whose grows are placed as they come. */
    boolean arbitrates() {
        return arbiter.settings().rule() != ShareRule.FCFS;
    }

    ArbitrationSettings settings() {
        return arbiter.settings();
    }

    /** Keeps a runner's report; answers with its share and what it is asked to give back. */
    ShareOrders report(long instance, ShareReport report, Instant now) {
        reports.put(instance, report);
        String id = Long.toString(instance);
        Share share = shares.getOrDefault(scope(pinned.get(instance)), Map.of()).get(id);
        int size = sizes.getOrDefault(instance, 1);
        List<HeldTenant> all = grid.tenants();
        int holds = all.stream().filter(i -> i.id() == instance).mapToInt(i -> i.workers().size())
                .findFirst().orElse(0);
        // each scope's asks against the workers in it: a site's against the instance's workers on that site
        int owes = 0;
        Instant by = null;
        for (Map.Entry<String, TakeBackBook> scoped : books.entrySet()) {
            List<TakeBackBook.Ask> asks = scoped.getValue().asks().stream().filter(a -> a.donor().equals(id)).toList();
            if (asks.isEmpty()) {
                continue;
            }
            int there = within(all, scoped.getKey()).stream().filter(i -> i.id() == instance)
                    .mapToInt(i -> i.workers().size()).findFirst().orElse(0);
            int toSize = asks.stream().mapToInt(TakeBackBook.Ask::toSize).min().orElse(there * size);
            if (there * size > toSize) {
                owes += workers(there * size - toSize, size);
                Instant deadline = asks.stream().map(TakeBackBook.Ask::deadline).max(Instant::compareTo).orElse(now);
                by = by == null || deadline.isAfter(by) ? deadline : by;
            }
        }
        ShareOrders.GiveBack giveBack = owes == 0 ? null : new ShareOrders.GiveBack(owes, by,
                lastShrunk.getOrDefault(instance, "asked to give nodes back"));
        return new ShareOrders(arbiter.settings().rule().toString(), holds,
                share == null || share.nodes().isEmpty() ? null : share.nodes().getAsInt() / size,
                share == null ? null : share.text(), giveBack, List.copyOf(takenBack.getOrDefault(instance,
                new java.util.ArrayDeque<>())));
    }

    /** How {@code koala frameworks} shows the instance; null before the first decision that saw it. */
    FrameworkView.ShareLine line(long instance, int holds, Instant now) {
        String id = Long.toString(instance);
        String scope = scope(pinned.get(instance));
        Share share = shares.getOrDefault(scope, Map.of()).get(id);
        Share fairShare = fair.getOrDefault(scope, Map.of()).get(id);
        if (share == null || fairShare == null) {
            return null;
        }
        int uses = within(grid.tenants(), scope).stream().filter(i -> i.id() == instance).findFirst()
                .map(i -> tenant(i, now).using()).orElse(0);
        int size = sizes.getOrDefault(instance, 1);
        return new FrameworkView.ShareLine(holds, uses, share.nodes().isPresent() ? share.nodes().getAsInt() / size : null,
                fairShare.nodes().orElse(0) / size, share.text(), lastShrunk.get(instance));
    }

    /**
     * How a running instance stands, for the metrics: its workers as its runner last reported them
     * (as the arbiter sees them), the share the policy holds it to and its fair share, as the last
     * decision left them (empty before a decision saw it; the share also when the policy counts none).
     */
    record Standing(Tenant tenant, java.util.OptionalInt share, java.util.OptionalInt fairShare) {
    }

    Standing standing(HeldTenant instance, Instant now) {
        Share share = shares.getOrDefault(GRID, Map.of()).get(Long.toString(instance.id()));
        Share fairShare = fair.getOrDefault(GRID, Map.of()).get(Long.toString(instance.id()));
        int size = sizes.getOrDefault(instance.id(), 1);
        return new Standing(tenant(instance, now), share == null ? java.util.OptionalInt.empty() : workersIn(share.nodes(), size),
                fairShare == null ? java.util.OptionalInt.empty() : workersIn(fairShare.nodes(), size));
    }

    /** What {@code instance}'s runner last reported of its workers; empty before its first report. */
    Optional<ShareReport> report(long instance) {
        return Optional.ofNullable(reports.get(instance));
    }

    /**
     * The share of its work {@code instance}'s framework last said it rejected lately (0 to 1), for the
     * metrics; empty when it reports none, or its runner has not reported yet.
     */
    OptionalDouble rejectRate(long instance) {
        ShareReport report = reports.get(instance);
        return report == null || report.rejectRate() == null || !(report.rejectRate() >= 0 && report.rejectRate() <= 1)
                ? OptionalDouble.empty() : OptionalDouble.of(report.rejectRate());
    }

    /**
     * A worker grow {@code asked} of {@code instance}'s: what the arbiter grants it now. A grow pinned to a
     * site is decided within that site: its free nodes, and the instances' workers there, are what is
     * shared out, and only those workers are taken back for it.
     */
    Outcome grow(long instance, koala.api.scheduler.GrowRequest asked, Instant now) {
        String scope = scope(asked.site());
        if (asked.site() == null) {
            pinned.remove(instance);
        } else {
            pinned.put(instance, asked.site());
        }
        return carryOut(scope, decide(scope, new Ask(instance, asked), now), new Ask(instance, asked));
    }

    /** The grow a decision is made in, if any: only its asker's grants run it. */
    private record Ask(long instance, koala.api.scheduler.GrowRequest request) {
        static final Ask NONE = new Ask(-1, null);

        java.util.Optional<koala.api.scheduler.GrowRequest> of(long id) {
            return id == instance ? java.util.Optional.of(request) : java.util.Optional.empty();
        }
    }

    /** Every second from the loop; decides once a round period (grace periods end, owed nodes come free). */
    void tick(Instant now) {
        if (now.isBefore(nextRound)) {
            return;
        }
        nextRound = now.plus(arbiter.settings().roundPeriod());
        List<HeldTenant> running = grid.tenants();
        reports.keySet().retainAll(running.stream().map(HeldTenant::id).toList());
        sizes.keySet().retainAll(running.stream().map(HeldTenant::id).toList());
        lastShrunk.keySet().retainAll(reports.keySet());
        takenBack.keySet().retainAll(reports.keySet());
        pinned.keySet().retainAll(running.stream().map(HeldTenant::id).toList());
        if (running.isEmpty()) {
            return;
        }
        carryOut(GRID, decide(GRID, Ask.NONE, now), Ask.NONE);
        // a site's round where something is pending there (an ask, a promise, a patience) or an instance is pinned
        java.util.Set<String> sites = new java.util.TreeSet<>(pinned.values());
        books.forEach((scope, b) -> {
            if (!scope.equals(GRID) && !(b.asks().isEmpty() && b.owed().isEmpty() && b.starved().isEmpty())) {
                sites.add(scope);
            }
        });
        for (String site : sites) {
            carryOut(site, decide(site, Ask.NONE, now), Ask.NONE);
        }
    }

    /** The instances as a scope sees them: on a site, each with only its workers there. */
    private List<HeldTenant> within(List<HeldTenant> all, String scope) {
        if (scope.equals(GRID)) {
            return all;
        }
        return all.stream().map(i -> new HeldTenant(i.id(), i.weight(), i.minShare(), i.workers().stream()
                .filter(w -> scope.equals(grid.site(w))).toList(), i.perWorker())).toList();
    }

    private void remember(long instance, List<String> nodes) {
        java.util.Deque<String> kept = takenBack.computeIfAbsent(instance, i -> new java.util.ArrayDeque<>());
        nodes.forEach(kept::addLast);
        while (kept.size() > TAKEN_BACK_KEPT) {
            kept.removeFirst();
        }
    }

    /**
     * The arbiter's decision on the scope now, with {@code ask}'s grow if any. A worker larger than a core counts
     * as the grid's nodes it takes ({@link NodeNeeds#gridNodes}); when the asker's are, what is free is how many
     * of its workers fit on the idle hosts, in those nodes, for a host's free cores alone may not hold one.
     */
    private Arbitration decide(String scope, Ask ask, Instant now) {
        String site = scope.equals(GRID) ? null : scope;
        List<HeldTenant> held = within(grid.tenants(), scope);
        Resources asked = ask.request() == null ? Resources.NODE : NodeNeeds.perNode(NodeNeeds.of(ask.request()));
        // the hosts are looked at only when some worker is larger than a core
        Resources total = asked.equals(Resources.NODE) && held.stream().allMatch(i -> i.perWorker().equals(Resources.NODE))
                ? Resources.NONE : grid.total(site);
        List<Tenant> tenants = new ArrayList<>();
        int free = site == null ? grid.freeNodes() : grid.freeNodes(site);
        for (HeldTenant i : held) {
            boolean asking = i.id() == ask.instance();
            Resources perWorker = asking ? asked : i.perWorker();
            int size = NodeNeeds.gridNodes(perWorker, total);
            sizes.put(i.id(), size);
            Tenant t = tenant(i, now).sized(size);
            tenants.add(asking ? t.asking(ask.request().nodes()) : t);
            if (asking && !perWorker.equals(Resources.NODE)) {
                free = Math.multiplyExact(grid.room(site, NodeNeeds.taken(NodeNeeds.of(ask.request()))), size);
            }
        }
        GridShare snapshot = new GridShare(free, tenants);
        TakeBackBook before = book(scope);
        Arbitration a = arbiter.decide(snapshot, before, now);
        if (!a.book().equals(before)) {
            keep.accept(scope, a.book());
        }
        books.put(scope, a.book());
        shares.put(scope, Map.copyOf(a.shares()));
        fair.put(scope, Map.copyOf(arbiter.fairShares(snapshot, a.book(), now)));
        return a;
    }

    /**
     * The instance as the arbiter sees it: the worker nodes the scheduler holds for it, busy or idle
     * as its runner last said; one its runner has not reported running yet is starting.
     */
    private Tenant tenant(HeldTenant i, Instant now) {
        ShareReport report = reports.get(i.id());
        Map<String, ShareReport.WorkerActivity> seen = new HashMap<>();
        if (report != null) {
            report.workers().forEach(w -> seen.put(w.node(), w));
        }
        List<Worker> workers = new ArrayList<>();
        int starting = 0;
        for (String node : i.workers()) {
            ShareReport.WorkerActivity w = seen.get(node);
            if (w == null) {
                starting++;
            } else if (w.busy() || w.idleSince() == null) {
                workers.add(Worker.busy(node, cpu(w)));
            } else {
                workers.add(Worker.idle(node, w.idleSince().isAfter(now) ? now : w.idleSince(), cpu(w)));
            }
        }
        OptionalDouble figure = report == null || report.figure() == null || !(report.figure() >= 0)
                || report.figure().isInfinite() ? OptionalDouble.empty() : OptionalDouble.of(report.figure());
        return new Tenant(Long.toString(i.id()), i.weight(), i.minShare(), workers, starting, 0, figure);
    }

    /** The workers of {@code size} that {@code nodes} of the grid's nodes take, a part counted whole. */
    private static int workers(int nodes, int size) {
        return (nodes + size - 1) / size;
    }

    private static java.util.OptionalInt workersIn(java.util.OptionalInt nodes, int size) {
        return nodes.isPresent() ? java.util.OptionalInt.of(nodes.getAsInt() / size) : nodes;
    }

    private static double cpu(ShareReport.WorkerActivity w) {
        return w.cpuPercent() >= 0 && Double.isFinite(w.cpuPercent()) ? w.cpuPercent() : 0;
    }

    private Outcome carryOut(String scope, Arbitration a, Ask ask) {
        Set<Long> running = Set.copyOf(grid.tenants().stream().map(HeldTenant::id).toList());
        Carrying carrying = new Carrying(ask, scope.equals(GRID) ? null : scope);
        for (ShareDecision d : a.decisions()) {
            if (running.contains(Long.parseLong(d.tenant()))) {
                d.carriedOutBy(carrying);
            }
        }
        if (!a.decisions().isEmpty()) {
            LOG.info("arbitration ({}{}): {}", arbiter.settings().rule(), scope.equals(GRID) ? "" : ", within site "
                    + scope, a.decisions());
        }
        if (ask.request() != null) {
            answered(ask.request().nodes(), carrying.granted.size(), carrying.promised, carrying.grantKind,
                    carrying.shortKind);
        }
        return new Outcome(carrying.granted, carrying.why.isEmpty() ? null : String.join("; ", carrying.why));
    }

    /**
     * One round's decisions carried out, in order: workers ended free nodes that a later grant of
     * the same round may take, and what the asker of the grow the round is decided in gets (or why
     * not) is kept for its answer.
     */
    private final class Carrying implements ShareDecision.CarryOut {
        final Ask ask;
        /** The site the decision was made within, null for the grid: its grants go there. */
        final String site;
        final List<String> ended = new ArrayList<>();
        final List<String> granted = new ArrayList<>();
        final List<String> why = new ArrayList<>();
        int promised;
        koala.arbitration.ShareReason.Kind grantKind;
        /** The first shortfall's kind of reason: the arbiter's, or a placement constraint's. */
        Enum<?> shortKind;

        Carrying(Ask ask, String site) {
            this.ask = ask;
            this.site = site;
        }

        @Override
        public void releaseIdle(ShareDecision.ReleaseIdle d) {
            end(d, d.workers(), JobEvent.TAKEN_BACK);
        }

        @Override
        public void endWorkers(ShareDecision.EndWorkers d) {
            end(d, d.workers(), JobEvent.ENDED_AFTER_GRACE);
        }

        private void end(ShareDecision d, List<String> workers, JobEvent event) {
            long id = id(d);
            ended.addAll(workers);
            grid.end(id, workers, event, d.reason().text());
            remember(id, workers);
            lastShrunk.put(id, d.reason().text());
            events.shrank(ShrinkOutcome.ENDED, d.reason().kind(), workers.size());
        }

        @Override
        public void askShrink(ShareDecision.AskShrink d) {
            grid.note(id(d), JobEvent.ASKED_TO_SHRINK, d.reason().text());
            lastShrunk.put(id(d), d.reason().text());
            events.shrank(ShrinkOutcome.ASKED, d.reason().kind(), d.nodes());
        }

        @Override
        public void grant(ShareDecision.Grant d) {
            long id = id(d);
            Granted g = grid.grant(id, d.nodes(), ended, d.reason().text(), ask.of(id), site);
            if (!g.nodes().isEmpty()) {
                events.nodesGranted(d.reason().kind(), g.nodes().size());
            }
            if (id == ask.instance()) {
                granted.addAll(g.nodes());
                grantKind = grantKind == null ? d.reason().kind() : grantKind;
                if (g.limit() != null) {
                    // the arbiter granted them; the instance's own hard constraints kept them out
                    why.add(Granted.words(g.limit()));
                    shortKind = shortKind == null ? g.limit().kind() : shortKind;
                }
            }
        }

        @Override
        public void promised(ShareDecision.Promised d) {
            if (id(d) == ask.instance()) {
                promised += d.nodes();
                fallsShort(d);
            } else {
                grid.note(id(d), JobEvent.PROMISED, d.reason().text());
            }
        }

        @Override
        public void refuse(ShareDecision.Refuse d) {
            if (id(d) == ask.instance()) {
                fallsShort(d);
            } else {
                grid.note(id(d), JobEvent.GROW_REFUSED, d.nodes() + " owed nodes refused: " + d.reason().text());
            }
        }

        private void fallsShort(ShareDecision d) {
            why.add(d.reason().text());
            shortKind = shortKind == null ? d.reason().kind() : shortKind;
        }

        private long id(ShareDecision d) {
            return Long.parseLong(d.tenant());
        }
    }

    /**
     * Tells how a grow of {@code asked} nodes was answered: why it got less, or where what it got
     * came from ({@code grantKind}, {@code shortKind}: the first grant's and the first shortfall's
     * kinds of reason, null for none).
     */
    private void answered(int asked, int granted, int promised, koala.arbitration.ShareReason.Kind grantKind,
                          Enum<?> shortKind) {
        GrowOutcome outcome = granted >= asked ? GrowOutcome.GRANTED : granted > 0 ? GrowOutcome.PARTIAL
                : promised > 0 ? GrowOutcome.PROMISED : GrowOutcome.REFUSED;
        Enum<?> reason = granted >= asked ? grantKind : shortKind != null ? shortKind
                : granted > 0 ? grantKind : GridEvents.GridReason.NOT_PLACED;
        events.grew(outcome, reason);
    }

}
