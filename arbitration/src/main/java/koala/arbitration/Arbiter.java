package koala.arbitration;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import koala.provisioning.NaturalOrder;
import koala.provisioning.Texts;
import koala.provisioning.Worker;

/**
 * Shares a full grid between framework instances: given a snapshot ({@link GridShare}), its own
 * memory ({@link TakeBackBook}) and the time, it answers grow requests and takes nodes back, by
 * the policy of its settings ({@link ShareRule}). Pure: no I/O, no clock, no state of its own; the
 * scheduler (real time) and the simulator (virtual time) call the very same code.
 *
 * <p>The scheduler calls {@link #decide} when an instance asks to grow (that instance's
 * {@link Tenant#asking()} set), after carrying out decisions that ended workers, and every
 * {@link ArbitrationSettings#roundPeriod()} (grace periods run out, promised nodes come free).
 * One decision goes in three steps:
 * <ol>
 *   <li><b>Grace over.</b> An instance asked to come down to a size that still holds more when its
 *       deadline passes has workers ended by KOALA ({@link ShareDecision.EndWorkers}): idle ones
 *       first, longest idle first; then busy ones, the least CPU first, ties to the highest id in
 *       {@link NaturalOrder} (the most recently granted, as YARN preempts the youngest container).</li>
 *   <li><b>Asks.</b> Instances asking are answered in id order; one asked to give nodes back gets
 *       none until its deadline has passed. First from the free nodes not owed
 *       to anyone, as far as the policy allows ({@link ShareDecision.Grant}, {@code FREE_NODES});
 *       the rest, when the policy finds the asker entitled to it, is taken back from the donors the
 *       policy names, in its order. From each donor: its idle workers first, longest idle first
 *       ({@link ShareDecision.ReleaseIdle}, ended at once); then it is asked to give back workers of
 *       its choosing within the grace period ({@link ShareDecision.AskShrink}). Every donor keeps its
 *       floor — its minimum share, or the nodes moved to it within the stabilization window if more,
 *       so that no node moves twice within the window — and no more than
 *       {@link ArbitrationSettings#roundBudget} nodes are taken back per round period. An instance
 *       owed nodes gives nothing; one refused below its share takes back only once it has been so
 *       for the patience (a shortfall that free nodes soon make good moves nothing); one that gave
 *       nodes back within the window takes nothing back
 *       (it still gets free nodes), so that nodes do not flow back and forth. What cannot be had is
 *       refused ({@link ShareDecision.Refuse}) with the bound that stopped it. With
 *       {@link ArbitrationSettings#queuedDemand()} (not under fcfs), an instance that asks nothing
 *       but reports queued work ({@link Tenant#queued()}) is served as if it asked for it — free
 *       nodes, then taking back within the same bounds — and what it cannot have is not refused
 *       (it asked nothing): its queue is its standing request, as YARN's pending requests.</li>
 *   <li><b>Owed nodes.</b> Nodes that came free (ended, released or free in the snapshot) go to the
 *       instances they were taken back for, oldest promise first ({@link ShareDecision.Grant},
 *       {@code TAKEN_BACK}); what is still to come is announced ({@link ShareDecision.Promised});
 *       a promise not kept by its deadline plus a round period is refused.</li>
 * </ol>
 * Decisions come back in the order to carry them out: workers to end (grace over, idle taken
 * back), shrink requests, grants, promises, refusals. Nodes ended by a decision count as free
 * within it, since the scheduler ends them before it grants.
 */
public final class Arbiter {
    private final ArbitrationSettings settings;
    private final SharePolicy policy;

    public Arbiter(ArbitrationSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.policy = settings.rule().policy(settings);
    }

    public ArbitrationSettings settings() {
        return settings;
    }

    /** The decisions for this snapshot, the policy's view of each instance, and the book for the next call. */
    public Arbitration decide(GridShare grid, TakeBackBook book, Instant now) {
        Round round = new Round(grid, book.pruned(now, settings), now);
        round.graceOver();
        round.asks();
        round.owed();
        return round.result();
    }

    /**
     * Each instance's weighted max-min fair share of this snapshot, whatever the policy in force
     * (for {@code koala frameworks}, beside the share the policy holds it to).
     */
    public Map<String, Share> fairShares(GridShare grid, TakeBackBook book, Instant now) {
        ArbitrationSettings fair = settings.withRule(ShareRule.FAIR);
        return new FairPolicy().shares(ShareView.of(grid, book.pruned(now, fair), fair, now));
    }

    /** One decision's working state. */
    private final class Round {
        private final Instant now;
        private final Map<String, Tenant> tenants = new LinkedHashMap<>();
        private final TakeBackBook before;
        private final List<TakeBackBook.Owed> owed;
        private final List<TakeBackBook.Ask> asks;
        private final List<TakeBackBook.Move> moves;
        private final List<TakeBackBook.Taking> takings;
        private final Map<String, Instant> starved = new LinkedHashMap<>();
        private final List<ShareDecision> ends = new ArrayList<>();
        private final List<ShareDecision> shrinks = new ArrayList<>();
        private final List<ShareDecision> grants = new ArrayList<>();
        private final List<ShareDecision> promises = new ArrayList<>();
        private final List<ShareDecision> refusals = new ArrayList<>();
        private final Set<String> named = new HashSet<>();
        private final Map<String, Integer> takenFrom = new HashMap<>();
        private final Set<TakeBackBook.Owed> fresh = new HashSet<>();
        private Map<String, Share> shares = Map.of();
        private int free;
        private int freeGranted;
        private int taken;

        Round(GridShare grid, TakeBackBook book, Instant now) {
            this.now = Objects.requireNonNull(now, "now");
            grid.tenants().forEach(t -> tenants.put(t.id(), t));
            this.before = book;
            this.owed = new ArrayList<>(book.owed().stream().filter(o -> tenants.containsKey(o.tenant())).toList());
            this.asks = new ArrayList<>(book.asks().stream().filter(a -> tenants.containsKey(a.donor())).toList());
            this.moves = new ArrayList<>(book.moves());
            this.takings = new ArrayList<>(book.takings());
            book.starved().stream().filter(x -> tenants.containsKey(x.tenant()))
                    .forEach(x -> starved.put(x.tenant(), x.since()));
            this.free = grid.freeNodes();
        }

        /**
         * Step 1: asks whose deadline has passed with the donor still above its asked size. KOALA ends
         * workers down to the asked size — or down to the donor's share now, if that is more (workers
         * that were idle when it was asked may run something by now): what it no longer owes, the
         * instance it was owed to is refused.
         */
        void graceOver() {
            asks.sort(Comparator.comparing(TakeBackBook.Ask::deadline).thenComparing(TakeBackBook.Ask::donor,
                    NaturalOrder.IDS));
            for (TakeBackBook.Ask ask : List.copyOf(asks)) {
                Tenant donor = tenants.get(ask.donor());
                if (donor.heldNodes() <= ask.toSize()) {
                    asks.remove(ask);
                } else if (!now.isBefore(ask.deadline())) {
                    asks.remove(ask);
                    int keep = Math.min(donor.heldNodes(), Math.max(ask.toSize(), shareNow(donor.id())));
                    if (keep > ask.toSize()) {
                        excuse(ask, keep - ask.toSize());
                    }
                    List<String> ids = toEnd(donor, donor.workersCovering(donor.heldNodes() - keep));
                    if (!ids.isEmpty()) {
                        ends.add(new ShareDecision.EndWorkers(donor.id(), ids, new ShareReason(ShareReason.Kind.GRACE_OVER,
                                "grace " + Texts.seconds(settings.grace()) + " over: asked at " + Texts.clock(ask.at())
                                        + " to be down to " + Texts.count(keep, "node") + " for " + ask.forTenant()
                                        + ", holds " + donor.heldNodes() + ": ending " + Texts.list(ids))));
                        without(donor, ids);
                    }
                }
            }
        }

        /** The nodes the policy holds {@code donor} to now, its asks aside; 0 when the policy counts no nodes. */
        private int shareNow(String donor) {
            TakeBackBook others = new TakeBackBook(owed, asks.stream().filter(a -> !a.donor().equals(donor)).toList(),
                    moves, takings, List.of());
            ShareView view = ShareView.of(new GridShare(free, List.copyOf(tenants.values())), others, settings, now);
            return policy.shares(view).get(donor).nodes().orElse(0);
        }

        /** {@code nodes} of an ask are not taken after all: the instance they were for is owed that many fewer. */
        private void excuse(TakeBackBook.Ask ask, int nodes) {
            int left = nodes;
            for (TakeBackBook.Owed o : List.copyOf(owed)) {
                if (left > 0 && o.tenant().equals(ask.forTenant())) {
                    int less = Math.min(left, o.nodes());
                    left -= less;
                    int at = owed.indexOf(o);
                    if (less == o.nodes()) {
                        owed.remove(at);
                    } else {
                        owed.set(at, new TakeBackBook.Owed(o.tenant(), o.nodes() - less, o.since(), o.expires()));
                    }
                }
            }
            if (left < nodes) {
                refusals.add(new ShareDecision.Refuse(ask.forTenant(), workers(ask.forTenant(), nodes - left), new ShareReason(
                        ShareReason.Kind.TAKE_BACK_SHORT, Texts.count(nodes - left, "node") + " taken back for it from "
                        + ask.donor() + " are not: " + ask.donor() + " is no longer above its share")));
            }
        }

        /** Step 2: every instance asking, in id order; with queuedDemand, those with queued work too. */
        void asks() {
            ShareView view = ShareView.of(new GridShare(free, List.copyOf(tenants.values())), book(), settings, now);
            shares = policy.shares(view);
            for (ShareView.Standing s : view.standings()) {
                if (s.tenant().asking() > 0) {
                    answer(view, s);
                } else if (s.tenant().queued() > 0 && settings.queuedDemand() && settings.rule() != ShareRule.FCFS) {
                    serveQueue(view, s);
                }
            }
        }

        private void answer(ShareView view, ShareView.Standing s) {
            int asking = s.tenant().nodesOf(s.tenant().asking());
            if (s.asked() != null) {
                refuse(s.id(), asking, asking, new ShareReason(ShareReason.Kind.GIVING_BACK, "it is to give nodes back by "
                        + Texts.clock(s.asked()) + " and gets none meanwhile"));
                return;
            }
            int fromFree = grantFree(view, s, asking, "");
            int rest = asking - fromFree;
            if (rest == 0) {
                starved.remove(s.id());
            } else if (s.gave() != null) {
                refuse(s.id(), rest, asking, new ShareReason(ShareReason.Kind.GAVE_RECENTLY, "it gave nodes back at "
                        + Texts.clock(s.gave()) + " and takes none back before " + Texts.clock(s.gave().plus(
                                settings.window())) + " (stabilization window " + Texts.seconds(settings.window()) + ")"));
            } else {
                takeBackFor(view, s, fromFree, rest, true);
            }
        }

        /**
         * An instance that asks nothing but reports queued work: served as if it asked for it, by the same
         * rules, but nothing is refused to it — it asked nothing, and its queue stands until served.
         */
        private void serveQueue(ShareView view, ShareView.Standing s) {
            int wants = s.tenant().nodesOf(s.tenant().queued());
            if (s.asked() != null) {
                return;
            }
            int fromFree = grantFree(view, s, wants, " for its queued work");
            int rest = wants - fromFree;
            if (rest == 0) {
                starved.remove(s.id());
            } else if (s.gave() == null) {
                takeBackFor(view, s, fromFree, rest, false);
            }
        }

        /** Grants what the policy allows of the free nodes no one is owed; the nodes granted. */
        private int grantFree(ShareView view, ShareView.Standing s, int asking, String forWhat) {
            int available = Math.max(0, free - owedTotal() - freeGranted);
            int room = Math.max(0, policy.freeLimit(view, shares, s) - s.holds());
            Tenant t = s.tenant();
            int fromFree = t.nodesOf(t.workersIn(Math.min(asking, Math.min(available, room))));
            if (fromFree > 0) {
                freeGranted += fromFree;
                int workers = t.workersIn(fromFree);
                grants.add(new ShareDecision.Grant(s.id(), workers, new ShareReason(ShareReason.Kind.FREE_NODES,
                        fromFree == asking ? "grant " + workers + (forWhat.isEmpty() ? " as asked" : forWhat)
                                + ", from the free nodes" : "grant " + workers + " of " + t.workersIn(asking) + forWhat
                                + " from the free nodes")));
            }
            return fromFree;
        }

        /**
         * The rest of an ask, after {@code fromFree} free nodes: taken back as the policy plans, within the
         * bounds; what cannot be had is refused if {@code asked} (not for queued work).
         */
        private void takeBackFor(ShareView view, ShareView.Standing s, int fromFree, int rest, boolean asked) {
            int asking = fromFree + rest;
            SharePolicy.Plan plan = policy.plan(view, shares, s, s.holds() + fromFree, rest);
            int want = s.tenant().nodesOf(s.tenant().workersIn(Math.min(rest, plan.entitled())));
            if (want == 0) {
                starved.remove(s.id());
            } else if (impatient(s.id())) {
                Instant since = starved.get(s.id());
                refuseIf(asked, s.id(), rest, asking, new ShareReason(ShareReason.Kind.PATIENCE, "refused below its share since "
                        + Texts.clock(since) + "; nodes are taken back for it from " + Texts.clock(since.plus(
                                settings.patience())) + " (patience " + Texts.seconds(settings.patience()) + ")"));
                return;
            }
            int got = takeBack(view, s, plan, want);
            if (got == rest) {
                starved.remove(s.id());
            } else {
                refuseIf(asked, s.id(), rest - got, asking, got < want ? shortOf(view.capacity(), want, got) : plan.limit());
            }
        }

        /** True while {@code tenant}, refused below its share, has not yet been so for the patience; marks it from now. */
        private boolean impatient(String tenant) {
            Instant since = starved.computeIfAbsent(tenant, t -> now);
            return now.isBefore(since.plus(settings.patience()));
        }

        /** Takes up to {@code want} nodes for {@code taker} from the plan's donors; the nodes taken. */
        private int takeBack(ShareView view, ShareView.Standing taker, SharePolicy.Plan plan, int want) {
            int got = 0;
            for (SharePolicy.Donation d : plan.donations()) {
                ShareView.Standing donor = view.standing(d.donor()).orElseThrow();
                int need = Math.min(Math.min(d.upTo(), budgetLeft(view.capacity())), want - got);
                int most = Math.min(donor.takeable() - takenFrom.getOrDefault(donor.id(), 0), hourLeft(donor.id()));
                int workers = wholeWorkers(donor.tenant(), need, most);
                if (workers > 0 && !donor.id().equals(taker.id())) {
                    got += give(donor, taker.id(), workers);
                }
            }
            got = Math.min(got, want);
            if (got > 0) {
                TakeBackBook.Owed o = new TakeBackBook.Owed(taker.id(), got, now,
                        now.plus(settings.grace()).plus(settings.roundPeriod()));
                owed.add(o);
                fresh.add(o);
            }
            return got;
        }

        /**
         * The donor's workers that give {@code need} of the grid's nodes: as many as cover it, or fewer when
         * that would take more than {@code most} (its floor, the bound per hour). A worker is not cut: one
         * larger than a node may take the donor below its share, or the round past its bound, by less than
         * a worker, or it could never be taken back at all.
         */
        private int wholeWorkers(Tenant donor, int need, int most) {
            int covering = donor.workersCovering(need);
            return donor.nodesOf(covering) <= most ? covering : donor.workersIn(most);
        }

        /**
         * {@code donor} gives {@code workers} of its workers for {@code taker}: its idle ones now, the rest asked
         * for; the grid's nodes they take.
         */
        private int give(ShareView.Standing donor, String taker, int workers) {
            String why = shares.get(donor.id()).text();
            int n = donor.tenant().nodesOf(workers);
            List<String> idle = idleLongestFirst(donor.tenant()).stream().limit(workers).toList();
            if (!idle.isEmpty()) {
                ends.add(new ShareDecision.ReleaseIdle(donor.id(), idle, new ShareReason(ShareReason.Kind.IDLE_ABOVE_SHARE,
                        "idle " + Texts.list(idle) + " taken back for " + taker + " (" + why + ")")));
                named.addAll(idle);
                free += donor.tenant().nodesOf(idle.size());
            }
            int rest = workers - idle.size();
            Instant deadline = now.plus(settings.grace());
            if (rest > 0) {
                shrinks.add(new ShareDecision.AskShrink(donor.id(), rest, deadline, new ShareReason(
                        ShareReason.Kind.ASKED_TO_SHRINK, "give back " + Texts.count(rest, "worker") + " for " + taker
                                + " by " + Texts.clock(deadline) + " (grace " + Texts.seconds(settings.grace()) + "; "
                                + why + ")")));
            }
            int already = takenFrom.merge(donor.id(), n, Integer::sum) - n;
            asks.add(new TakeBackBook.Ask(donor.id(), taker, n, donor.alloc() - already - n, now, deadline));
            takings.add(new TakeBackBook.Taking(donor.id(), n, now));
            taken += n;
            return n;
        }

        /** Step 3: free nodes to the instances owed them, oldest promise first; expired promises refused. */
        void owed() {
            int available = Math.max(0, free - freeGranted);
            owed.sort(Comparator.comparing(TakeBackBook.Owed::since).thenComparing(TakeBackBook.Owed::tenant,
                    NaturalOrder.IDS));
            for (TakeBackBook.Owed o : List.copyOf(owed)) {
                Tenant t = tenants.get(o.tenant());
                int g = t.nodesOf(t.workersIn(Math.min(o.nodes(), available)));
                available -= g;
                if (g > 0) {
                    grants.add(new ShareDecision.Grant(o.tenant(), t.workersIn(g), new ShareReason(ShareReason.Kind.TAKEN_BACK,
                            "grant " + t.workersIn(g) + " taken back for it at " + Texts.clock(o.since()))));
                    moves.add(new TakeBackBook.Move(o.tenant(), g, now));
                }
                settle(o, o.nodes() - g);
            }
        }

        private void settle(TakeBackBook.Owed o, int left) {
            int at = owed.indexOf(o);
            if (left == 0) {
                owed.remove(at);
            } else if (!now.isBefore(o.expires())) {
                owed.remove(at);
                int workers = workers(o.tenant(), left);
                refusals.add(new ShareDecision.Refuse(o.tenant(), workers, new ShareReason(ShareReason.Kind.TAKE_BACK_SHORT,
                        Texts.count(workers, "node") + " taken back for it did not come free by " + Texts.clock(o.expires()))));
            } else {
                owed.set(at, new TakeBackBook.Owed(o.tenant(), left, o.since(), o.expires()));
                if (fresh.contains(o)) {
                    int workers = workers(o.tenant(), left);
                    promises.add(new ShareDecision.Promised(o.tenant(), workers, now.plus(settings.grace()), new ShareReason(
                            ShareReason.Kind.PROMISED, Texts.count(workers, "more node") + " being taken back for it, by "
                                    + Texts.clock(now.plus(settings.grace())))));
                }
            }
        }

        Arbitration result() {
            List<ShareDecision> all = new ArrayList<>(ends);
            all.addAll(shrinks);
            all.addAll(grants);
            all.addAll(promises);
            all.addAll(refusals);
            return new Arbitration(all, shares, book());
        }

        private TakeBackBook book() {
            return new TakeBackBook(owed, asks, moves, takings, starved.entrySet().stream()
                    .map(e -> new TakeBackBook.Starved(e.getKey(), e.getValue())).toList());
        }

        private int owedTotal() {
            return owed.stream().mapToInt(TakeBackBook.Owed::nodes).sum();
        }

        private int budgetLeft(int capacity) {
            return Math.max(0, settings.roundBudget(capacity) - before.takenWithin(now, settings.roundPeriod()) - taken);
        }

        /** Nodes that may still be taken from {@code donor} this hour: unbounded unless maxPerHour is set. */
        private int hourLeft(String donor) {
            if (settings.maxPerHour() == 0) {
                return Integer.MAX_VALUE;
            }
            return Math.max(0, settings.maxPerHour() - before.takenFrom(donor, now, java.time.Duration.ofHours(1))
                    - takenFrom.getOrDefault(donor, 0));
        }

        private ShareReason shortOf(int capacity, int want, int got) {
            if (budgetLeft(capacity) == 0) {
                return new ShareReason(ShareReason.Kind.ROUND_BUDGET, "at most " + settings.roundBudget(capacity)
                        + " nodes are taken back per " + Texts.seconds(settings.roundPeriod()) + " ("
                        + Texts.percent(settings.roundFraction() * 100) + " of " + capacity + ")");
            }
            return new ShareReason(ShareReason.Kind.DONORS_AT_FLOOR, "entitled to " + want + " more, but the instances above "
                    + "their share could give only " + got + " (minimum shares, nodes moved within "
                    + Texts.seconds(settings.window()) + (settings.maxPerHour() > 0 ? ", at most " + settings.maxPerHour()
                    + " nodes from one instance an hour" : "") + ")");
        }

        private void refuseIf(boolean asked, String tenant, int nodes, int asking, ShareReason why) {
            if (asked) {
                refuse(tenant, nodes, asking, why);
            }
        }

        /** {@code nodes} of the {@code asked} grid's nodes refused to {@code tenant}: said in its workers. */
        private void refuse(String tenant, int nodes, int asked, ShareReason why) {
            int workers = workers(tenant, nodes);
            refusals.add(new ShareDecision.Refuse(tenant, workers, new ShareReason(why.kind(), workers + " of "
                    + workers(tenant, asked) + " refused: " + why.text())));
        }

        /** The workers of {@code tenant} that {@code nodes} of the grid's nodes make, a part counted whole. */
        private int workers(String tenant, int nodes) {
            Tenant t = tenants.get(tenant);
            return t == null ? nodes : t.workersCovering(nodes);
        }

        /** Workers to end: idle first, longest idle first; then busy, least CPU first, ties to the highest id. */
        private List<String> toEnd(Tenant t, int n) {
            List<String> ids = new ArrayList<>(idleLongestFirst(t));
            t.workers().stream().filter(w -> w.busy() && !named.contains(w.id()))
                    .sorted(Comparator.comparingDouble(Worker::cpuPercent)
                            .thenComparing(Worker::id, NaturalOrder.IDS.reversed()))
                    .forEach(w -> ids.add(w.id()));
            List<String> chosen = ids.stream().limit(n).toList();
            named.addAll(chosen);
            return chosen;
        }

        private List<String> idleLongestFirst(Tenant t) {
            return t.workers().stream().filter(w -> !w.busy() && !named.contains(w.id()))
                    .sorted(Comparator.comparing(Worker::idleSince).thenComparing(Worker::id, NaturalOrder.IDS))
                    .map(Worker::id).toList();
        }

        /** The tenant without the workers just ended; their nodes count as free within this decision. */
        private void without(Tenant t, List<String> ended) {
            List<Worker> left = t.workers().stream().filter(w -> !ended.contains(w.id())).toList();
            tenants.put(t.id(), t.withWorkers(left));
            free += t.nodesOf(ended.size());
        }
    }
}
