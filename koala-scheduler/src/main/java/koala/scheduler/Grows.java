package koala.scheduler;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.common.failure.InvalidField;
import koala.common.json.Json;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.placement.Assignment;
import koala.placement.GridView;
import koala.placement.PlacementPolicy;
import koala.placement.PlacementReason;
import koala.placement.Resources;
import koala.placement.SiteConstraints;
import koala.placement.SiteView;
import koala.scheduler.GrowPlacement.Placing;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.metrics.GridEvents;
import koala.scheduler.metrics.GridEvents.GrowOutcome;
import koala.scheduler.state.JobEvent;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Grows of allocations: nodes added to a running allocation at its holder's request, or granted to it by
 * the arbiter of a shared grid. A grow is placed at once by the allocation's placement policy
 * ({@link JobPolicies#forGrow}: by default Flexible Cluster Minimization, over as few sites as possible,
 * emptiest first; see {@link GrowPlacement}), and granted in part when the grid has fewer idle nodes; it
 * never waits in the queue — the runner decides what a refusal ({@link GrowRefusal}) means. A worker grow
 * on a grid shared by an arbiter ({@link Sharing}) is decided by it. Each grow is a component of the
 * allocation; each of its nodes runs the grow's command as soon as its pilot starts.
 */
final class Grows {
    private static final Logger LOG = LogManager.getLogger(Grows.class);
    private static final String WORKER_GROW = "allocation.worker-grow.";

    private final JobBook book;
    private final Store store;
    private final AllocationRequestIds ids;
    private final Allocations.Claims claims;
    private final JobPolicies policies;
    private final InstantSource clock;
    private final GridEvents events;
    /** Worker grows go through it when the grid's arbitration policy is not fcfs. */
    private Sharing sharing;

    Grows(JobBook book, Store store, AllocationRequestIds ids, Allocations.Claims claims, JobPolicies policies,
          InstantSource clock, GridEvents events) {
        this.book = book;
        this.store = store;
        this.ids = ids;
        this.claims = claims;
        this.policies = policies;
        this.clock = clock;
        this.events = events;
    }

    void sharing(Sharing sharing) {
        this.sharing = sharing;
    }

    /**
     * Grows {@code job}, an allocation that runs. A request named {@code requestId} that was carried out before
     * is answered as it was then, and nothing more is claimed ({@link AllocationRequestIds}).
     */
    GrowResult grow(Job job, GrowRequest request) {
        AllocationInput.checkGrow(request);
        String owner = owner(job);
        Optional<GrowResult> done = ids.answered(owner, job.id(), request);
        if (done.isPresent()) {
            LOG.info("allocation {}: grow {} asked again; answered as before", job.id(), request.requestId());
            return done.get();
        }
        rememberWorkerGrow(job.id(), request);
        GrowResult result = growNow(job, request);
        ids.rememberGrow(owner, job.id(), request, result);
        return result;
    }

    private GrowResult growNow(Job job, GrowRequest request) {
        boolean shared = sharing != null && sharing.arbitrates() && "worker".equals(role(request));
        if (shared && request.site() == null) {
            return arbitrated(job, request);
        }
        GridView all = claims.view(owner(job), perNode(request));
        if (request.site() != null && claims.known(request.site())
                && all.sites().stream().noneMatch(s -> s.site().equals(request.site()))) {
            return refused(job, request, new GrowRefusal.SiteUnreachable(request.site()));
        }
        GridView asked = only(all, request.site());
        GridView view = onNetworkOf(job, asked);
        if (shared && !view.sites().isEmpty() && !claims.closedTo(owner(job)).contains(request.site())) {
            // pinned to a site its nodes reach and open to its owner: shared out within that site
            return arbitrated(job, request);
        }
        return placedAsItComes(job, request, asked, view);
    }

    /**
     * A grow placed as it comes (fcfs, a master or orchestrator node, or a site closed to its owner): the
     * idle nodes of {@code view} (the sites {@code asked} whose nodes reach the instance's), or why none.
     */
    private GrowResult placedAsItComes(Job job, GrowRequest request, GridView asked, GridView view) {
        koala.placement.Resources perNode = perNode(request);
        int idle = GrowPlacement.room(view, perNode);
        int granted = Math.min(request.nodes(), idle);
        if (granted == 0) {
            return refused(job, request, view.sites().isEmpty() ? otherNetwork(job, asked) : gridFull(job, request,
                    asked, view));
        }
        PlacementPolicy policy = policies.forGrow(job, role(request));
        Placing placed = GrowPlacement.onIdle(job.id(), policy, granted, perNode, view);
        if (placed.nodes() == 0) {
            return refused(job, request, policy instanceof SiteConstraints || placed.limit() == null
                    ? GrowRefusal.Constraint.of(placed.limit()) : new GrowRefusal.NotPlaced(placed.limit()));
        }
        granted = placed.nodes();
        PlacementReason limit = placed.limit();
        List<String> nodes = claim(job, request, placed.assignments());
        String why = granted >= request.nodes() ? null : "partial: " + granted + " of " + request.nodes() + " nodes"
                + (limit != null ? ": " + limit.text() : ", the grid has no more idle"
                + (request.site() == null ? "" : " on " + request.site()));
        book.note(job, JobEvent.GREW, granted + " " + role(request) + " nodes: "
                + describe(placed.assignments()) + (why == null ? "" : "; " + why)
                + (placed.softViolations().isEmpty() ? "" : "; soft constraints broken, nothing else fitted: "
                + String.join("; ", placed.softViolations()))
                + because(request.reason()));
        // placed as it comes (fcfs, or a grow the arbiter does not decide): free nodes or none
        events.grew(why == null ? GrowOutcome.GRANTED : GrowOutcome.PARTIAL, why == null
                ? koala.arbitration.ShareReason.Kind.FREE_NODES : limit != null ? PlacementReason.Kind.HARD_CONSTRAINT
                : koala.arbitration.ShareReason.Kind.GRID_FULL);
        events.nodesGranted(koala.arbitration.ShareReason.Kind.FREE_NODES, nodes.size());
        return new GrowResult(job.id(), request.nodes(), granted, nodes, why);
    }

    /** What each node of the grow asks for. */
    private static koala.placement.Resources perNode(GrowRequest request) {
        return NodeNeeds.taken(NodeNeeds.of(request));
    }

    /** The grow refused: into the instance's history, counted, and answered with the refusal's words. */
    private GrowResult refused(Job job, GrowRequest request, GrowRefusal refusal) {
        book.note(job, JobEvent.GROW_REFUSED, request.nodes() + " " + role(request) + " nodes: " + refusal.text()
                + because(request.reason()));
        events.grew(GrowOutcome.REFUSED, refusal.kind());
        return new GrowResult(job.id(), request.nodes(), 0, List.of(), refusal.text());
    }

    /** No idle node on the sites asked for: which those were, and the single-tenant ones closed to the owner. */
    private GrowRefusal gridFull(Job job, GrowRequest request, GridView asked, GridView view) {
        List<String> reaching = view.sites().stream().map(SiteView::site).toList();
        return new GrowRefusal.GridFull(request.site(), view.sites().size() < asked.sites().size() ? reaching : null,
                claims.closedTo(owner(job)).stream().filter(reaching::contains).toList());
    }

    /** None of the sites asked for will do: their nodes cannot reach the instance's. */
    private GrowRefusal otherNetwork(Job job, GridView asked) {
        String network = job.nodes().stream().filter(n -> n.state().held()).findFirst()
                .map(n -> claims.network(n.site())).orElse("?");
        return new GrowRefusal.OtherNetwork(asked.sites().stream().map(SiteView::site).toList(), network);
    }

    /**
     * A worker grow on a shared grid: what the arbiter grants now (placed like any grow), and why not more.
     * A grow no site could take keeping the instance's hard constraints, however many nodes came free, is
     * refused at once naming the constraint, as a grow placed as it comes is: the arbiter takes nothing
     * back for nodes that could not be used.
     */
    private GrowResult arbitrated(Job job, GrowRequest request) {
        Optional<PlacementReason> nowhere = GrowPlacement.nowhere(policies.forGrow(job, "worker"),
                within(onNetworkOf(job, claims.view(owner(job))), request.site()));
        if (nowhere.isPresent()) {
            return refused(job, request, new GrowRefusal.Constraint(nowhere.get().text()));
        }
        Sharing.Outcome o = sharing.grow(job.id(), request, clock.instant());
        if (o.nodes().isEmpty()) {
            book.note(job, JobEvent.GROW_REFUSED, request.nodes() + " worker nodes: "
                    + o.reason() + because(request.reason()));
        }
        return new GrowResult(job.id(), request.nodes(), o.nodes().size(), o.nodes(), o.reason());
    }

    /**
     * Claims {@code count} worker nodes for allocation {@code job}, granted by the arbiter: running
     * {@code asked}, the allocation's own grow being decided, or else the last worker grow the
     * allocation itself asked for; on idle nodes first, the rest on the sites of {@code ended} (nodes
     * just ended for it, whose slots are coming free) — on {@code site} alone when the arbiter decided within
     * it, or on the site the grow they run was pinned to — all of them keeping the hard placement constraints
     * together. The ids claimed, and the constraint that let fewer in, named in the instance's history too
     * (the asker's answer carries it, through {@link Sharing}).
     */
    Sharing.Granted grantWorkers(Job job, int count, List<String> ended, String reason, Optional<GrowRequest> asked,
                                 String site, java.util.function.Function<String, Ended> endedOf) {
        GrowRequest like = asked.or(() -> lastWorkerAsked(job.id())).orElse(null);
        if (like == null) {
            book.note(job, JobEvent.GROW_REFUSED, count + " worker nodes granted ("
                    + reason + ") but it never asked for workers: nothing to run on them");
            return new Sharing.Granted(List.of(), null);
        }
        // a grant decided within a site goes there; one like a pinned grow, to the grow's site
        String where = site != null ? site : like.site();
        Resources perNode = perNode(like);
        GridView view = within(onNetworkOf(job, claims.view(owner(job), perNode)), where);
        int idle = GrowPlacement.room(view, perNode);
        PlacementPolicy policy = policies.forGrow(job, "worker");
        Placing onIdle = GrowPlacement.onIdle(job.id(), policy, Math.min(count, idle), perNode, view);
        List<String> slots = slots(ended.stream().map(endedOf).filter(Objects::nonNull)
                .filter(e -> where == null || where.equals(e.site())).toList(), perNode,
                hostsFree(view, perNode, onIdle.assignments()));
        Placing inSlots = GrowPlacement.inSlots(job.id(), policy, count - onIdle.nodes(), slots, onIdle.assignments(),
                view.files());
        List<Assignment> assignments = new ArrayList<>(onIdle.assignments());
        assignments.addAll(inSlots.assignments());
        PlacementReason limit = onIdle.limit() != null ? onIdle.limit() : inSlots.limit();
        String refused = limit == null ? "" : (count - onIdle.nodes() - inSlots.nodes()) + " of " + count
                + " not placed: " + Sharing.Granted.words(limit);
        if (assignments.isEmpty()) {
            if (limit != null && asked.isEmpty()) { // the asker's answer says it; an owed grant's only here
                book.note(job, JobEvent.GROW_REFUSED, count + " worker nodes granted (" + reason + "); " + refused);
            }
            return new Sharing.Granted(List.of(), limit);
        }
        List<String> nodes = claim(job, like.withNodes(assignments.stream().mapToInt(Assignment::nodes).sum()),
                assignments);
        book.note(job, JobEvent.GREW, nodes.size() + " worker nodes: "
                + describe(assignments) + " (" + reason + ")" + (limit == null ? "" : "; " + refused));
        return new Sharing.Granted(nodes, limit);
    }

    /** A node just ended for a grant: its site, its host (null when SGE chose and it is not known) and what it took. */
    record Ended(String site, String host, Resources taken) {
    }

    /**
     * The slots the nodes {@code ended} (just ended for a grant, in that order) leave for nodes of
     * {@code perNode}: a site once for each such node that will fit there as they come free. On a host
     * whose free resources the view knows ({@code hostFree}, less what the grant placed on idle resources),
     * what is free there counts with what the ended nodes held; elsewhere the ended nodes' resources
     * alone, per site. Resources a node did not ask for (no memory, say) are not counted for it.
     */
    static List<String> slots(List<Ended> ended, Resources perNode, java.util.Map<String, Resources> hostFree) {
        java.util.Map<String, Resources> freed = new java.util.HashMap<>();
        java.util.Map<String, Integer> made = new java.util.HashMap<>();
        List<String> slots = new ArrayList<>();
        for (Ended node : ended) {
            boolean known = node.host() != null && hostFree.containsKey(node.host());
            String where = known ? "host " + node.host() : "site " + node.site();
            Resources all = freed.merge(where, node.taken(), Resources::plus);
            Resources there = known ? all.plus(hostFree.get(node.host())) : all;
            Resources per = there.memoryMiB() == 0 ? new Resources(perNode.cores(), 0, perNode.gpus()) : perNode;
            int now = there.count(per);
            for (int i = made.getOrDefault(where, 0); i < now; i++) {
                slots.add(node.site());
            }
            made.merge(where, now, Math::max);
        }
        return slots;
    }

    /** What is free of each host of {@code view}, less the nodes of {@code perNode} {@code placed} put there. */
    private static java.util.Map<String, Resources> hostsFree(GridView view, Resources perNode, List<Assignment> placed) {
        java.util.Map<String, Resources> free = new java.util.HashMap<>();
        view.sites().forEach(s -> s.hosts().forEach(h -> free.put(h.host(), h.free())));
        for (Assignment a : placed) {
            for (int i = 0; i < a.nodes(); i++) {
                String host = a.host(i);
                if (host != null && free.containsKey(host) && free.get(host).fits(perNode)) {
                    free.put(host, free.get(host).minus(perNode));
                }
            }
        }
        return free;
    }

    /** The grow's nodes claimed where {@code assignments} put them, as a new component of the allocation; their ids. */
    private List<String> claim(Job job, GrowRequest request, List<Assignment> assignments) {
        String instance = request.environment().get("KOALA_INSTANCE");
        if (instance != null && !instance.equals(Long.toString(job.id()))) {
            // a pilot is never handed an environment built for another job: its secrets would leak
            throw new IllegalStateException("allocation " + job.id() + " was about to run a command built for "
                    + "instance " + instance + "; refused");
        }
        int component = job.description().components().size();
        ComponentSpec spec = new ComponentSpec(component, assignments.stream().mapToInt(Assignment::nodes).sum(),
                request.executable(), request.arguments(), null, request.environment(), request.stdout(), request.stderr(), null,
                request.site(), List.of(), role(request), null, List.of(), List.of(), NodeNeeds.of(request));
        List<ComponentSpec> components = new ArrayList<>(job.description().components());
        components.add(spec);
        JobDescription d = job.description();
        book.append(job, new JobDescription(d.source(), d.name(), d.kind(), d.placement(), d.priority(), components,
                d.framework(), d.position()));
        List<String> ids = new ArrayList<>();
        int rank = 0;
        String runner = request.environment() == null ? null
                : request.environment().get(koala.api.runner.RunnerClient.URL_VARIABLE);
        for (Assignment a : assignments) {
            if (runner != null) {
                claims.prepare(a.site(), runner);
            }
            for (int i = 0; i < a.nodes(); i++, rank++) {
                NodeClaim node = new NodeClaim(job.id() + "." + component + "." + rank, job.id(), component, rank,
                        a.site(), NodeState.SUBMITTED, null, a.host(i), null, claims.token(), null, 1);
                claims.submit(job, node);
                ids.add(node.id());
            }
        }
        return ids;
    }

    /**
     * The last worker grow an allocation's own holder asked for (granted, promised or refused), as a request
     * to repeat: kept in the store, so a restarted scheduler grants an owed node like it.
     */
    private void rememberWorkerGrow(long id, GrowRequest request) {
        if ("worker".equals(role(request))) {
            store.saveState(WORKER_GROW + id, Json.write(request.withNodes(1).withRequestId(null)));
        }
    }

    private Optional<GrowRequest> lastWorkerAsked(long id) {
        return store.state(WORKER_GROW + id).map(json -> {
            try {
                return Json.mapper().readValue(json, GrowRequest.class);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("unreadable stored worker grow of allocation " + id + ": "
                        + e.getMessage(), e);
            }
        });
    }

    /**
     * The sites whose nodes reach the allocation's: those on the network of its first node that still
     * holds one. A remote site's nodes reach only each other, so an instance stays on one network.
     */
    private GridView onNetworkOf(Job job, GridView view) {
        return job.nodes().stream().filter(n -> n.state().held()).findFirst()
                .map(n -> claims.network(n.site()))
                .map(net -> new GridView(view.sites().stream().filter(s -> claims.network(s.site()).equals(net))
                        .toList(), view.files()))
                .orElse(view);
    }

    /** {@code view}'s site {@code site} alone (none when it is not in it); the whole view for a null site. */
    private static GridView within(GridView view, String site) {
        return site == null ? view : new GridView(view.sites().stream().filter(s -> s.site().equals(site)).toList(),
                view.files());
    }

    /** As {@link #within}, but a site not up in the grid is bad input. */
    private static GridView only(GridView view, String site) {
        if (site != null && view.sites().stream().noneMatch(s -> s.site().equals(site))) {
            throw new InvalidField("site", "no site '" + site + "' up in this grid (sites: " + view.sites()
                    .stream().map(SiteView::site).collect(Collectors.joining(", ")) + ")");
        }
        return within(view, site);
    }

    private static String owner(Job job) {
        return job.record().owner() == null ? "" : job.record().owner();
    }

    static String role(GrowRequest request) {
        return request.role() == null ? "worker" : request.role();
    }

    static String because(String reason) {
        return reason == null || reason.isBlank() ? "" : " (" + reason + ")";
    }

    private static String describe(List<Assignment> assignments) {
        return assignments.stream().map(a -> a.nodes() + " on " + a.site()).collect(Collectors.joining(", "));
    }
}
