package koala.scheduler;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import koala.common.api.GrowRequest;
import koala.common.api.GrowResult;
import koala.common.api.JobView;
import koala.common.failure.Conflict;
import koala.common.failure.InvalidField;
import koala.common.jdf.ComponentSpec;
import koala.common.jdf.JobDescription;
import koala.common.jdf.JobKind;
import koala.common.json.Json;
import koala.placement.Assignment;
import koala.placement.ComponentNeed;
import koala.placement.PlacementDecision;
import koala.placement.FlexibleClusterMinimization;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicy;
import koala.placement.PlacementReason;
import koala.placement.SiteConstraints;
import koala.placement.SiteView;
import koala.common.api.RolePlacement;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.metrics.GridEvents;
import koala.scheduler.metrics.GridEvents.GridReason;
import koala.scheduler.metrics.GridEvents.GrowOutcome;
import koala.scheduler.state.JobEvent;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.JobRecord;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Allocations: what framework runners hold. An allocation is a job that runs from the moment it is
 * opened and whose nodes its owner adds (grow) and gives back (release) while it runs. A grow is
 * placed at once, over as few sites as possible, emptiest first, and granted in part when the grid
 * has fewer idle nodes; it never waits in the queue — the runner decides what a refusal means. Each
 * grow is a component; each of its nodes runs the grow's command as soon as its pilot starts. A
 * node whose pilot has not started within the claim time-out is released, and the runner told so
 * through the allocation's nodes.
 */
final class Allocations {
    static final String KIND = "ALLOCATION";
    private static final Logger LOG = LogManager.getLogger(Allocations.class);

    /** What allocations need of the scheduler. */
    interface Claims {
        void submit(Job job, NodeClaim node);

        void kill(Job job, NodeClaim node);

        /** The grid as {@code owner}'s work may use it ({@link Scheduler#gridViewFor}). */
        GridView view(String owner);

        /** Whether {@code site} is one of the grid's, up or not. */
        boolean known(String site);

        /** The single-tenant sites closed to {@code owner}'s work now ({@link Scheduler#closedTo}). */
        List<String> closedTo(String owner);

        String token();

        /** The network {@code site}'s nodes are on ({@link Pilots#network}). */
        String network(String site);

        /** The groups an admin declared for hosts, for constraints kept per host or rack; null for none. */
        default JobConstraints.GroupsOf groupsOf() {
            return null;
        }

        void fire(Job job, JobEvent event, String reason);

        /** Makes ready, off the loop, the way {@code site}'s nodes reach {@code url} (a runner's). */
        void prepare(String site, String url);
    }

    private final JobBook book;
    private final koala.scheduler.storage.Store answers;
    /** Named opens and grows: a retry answered as before, the name reused for another request refused. */
    private final NamedRequests named;
    private final Claims claims;
    private final InstantSource clock;
    private final java.time.Duration claimTimeout;
    private final GridEvents events;
    /** Worker grows go through it when the grid's arbitration policy is not fcfs. */
    private Sharing sharing;

    Allocations(JobBook book, koala.scheduler.storage.Store answers, Claims claims, InstantSource clock,
                java.time.Duration claimTimeout, GridEvents events) {
        this.book = book;
        this.answers = answers;
        this.named = new NamedRequests(answers);
        this.claims = claims;
        this.clock = clock;
        this.claimTimeout = claimTimeout;
        this.events = events;
    }

    void sharing(Sharing sharing) {
        this.sharing = sharing;
    }

    /**
     * @param holder what holds it, e.g. a runner's name (the request's {@code owner} field)
     * @param owner  the user it belongs to
     */
    JobView open(String holder, String owner) {
        return open(holder, owner, null);
    }

    /** As {@link #open(String, String)}; a request named {@code requestId} that was carried out is answered with its allocation. */
    JobView open(String holder, String owner, String requestId) {
        return open(holder, owner, requestId, List.of());
    }

    /**
     * As {@link #open(String, String, String)}, with its roles' tags and placement constraints (a framework
     * JDF's), kept with the allocation: its grows are placed with them.
     */
    JobView open(String holder, String owner, String requestId, List<RolePlacement> roles) {
        if (holder == null || holder.isBlank()) {
            throw new InvalidField("owner", "missing: who holds the allocation");
        }
        check(roles == null ? List.of() : roles);
        String who = owner == null ? "" : owner;
        NamedRequests.Asked asked = new NamedRequests.Asked(NamedRequests.Kind.OPEN,
                Map.of("owner", holder, "roles", roles == null ? List.of() : roles));
        java.util.Optional<Job> done = requestId == null ? java.util.Optional.empty()
                : named.earlier(who, requestId, requestId, asked).flatMap(id -> book.find(Long.parseLong(id)));
        if (done.isPresent()) {
            return done.get().view();
        }
        JobDescription empty = new JobDescription("-", holder, JobKind.FRAMEWORK, null, "high", List.of(), Map.of(), null);
        JobRecord record = new JobRecord(book.nextId(), holder, "-", Json.write(empty), KIND, JobState.RUNNING,
                FlexibleClusterMinimization.NAME, "high", 0, 0, null, clock.instant(), owner);
        Job job = new Job(record, empty);
        job.roles(roles == null ? List.of() : roles);
        if (requestId != null) {
            named.remember(who, requestId, asked, Long.toString(job.id()), clock.instant());
        }
        book.add(job);
        book.record(job, null, JobState.RUNNING, JobEvent.ALLOCATED, "opened by " + holder + " of " + owner);
        LOG.info("allocation {} opened by {} of {}", job.id(), holder, owner);
        return job.view();
    }

    /**
     * Grows the allocation. A request named {@code requestId} that was carried out before is answered
     * as it was then, and nothing more is claimed: a retry never grants the nodes twice (a runner
     * restarted while its grow was in flight asks again, not knowing whether the first one arrived;
     * the answer is in the store, so this holds across the scheduler's own restarts too). The name
     * used before for a grow that asked something else is a {@link koala.common.failure.Conflict}
     * ({@link NamedRequests}).
     */
    GrowResult grow(long id, GrowRequest request) {
        return place(id, request);
    }

    /** Notes something that happened to allocation {@code id}'s holder in its history (its runner restarted, say). */
    void note(long id, JobEvent event, String reason) {
        Job job = open(id);
        book.note(job, event, reason);
    }

    private GrowResult place(long id, GrowRequest request) {
        Job job = open(id);
        check(request);
        String owner = job.record().owner() == null ? "" : job.record().owner();
        NamedRequests.Asked asked = asked(request);
        if (request.requestId() != null) {
            java.util.Optional<GrowResult> done = named.earlier(owner, id + "/" + request.requestId(),
                    request.requestId(), asked).map(Allocations::growResult);
            if (done.isPresent()) {
                LOG.info("allocation {}: grow {} asked again; answered as before", id, request.requestId());
                return done.get();
            }
        }
        rememberWorkerGrow(id, request);
        GrowResult result = growNow(job, request);
        if (request.requestId() != null) {
            named.remember(owner, id + "/" + request.requestId(), asked, Json.write(result), clock.instant());
        }
        return result;
    }

    /**
     * What a grow asks, as its request id stands for it: not its reason (words for the history) nor
     * its environment (a runner started again asks its grow in flight again with the instance's master
     * address of now), which a retry may carry anew.
     */
    private static NamedRequests.Asked asked(GrowRequest request) {
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        fields.put("nodes", request.nodes());
        fields.put("role", role(request));
        fields.put("site", request.site());
        fields.put("executable", request.executable());
        fields.put("arguments", request.arguments());
        fields.put("stdout", request.stdout());
        fields.put("stderr", request.stderr());
        return new NamedRequests.Asked(NamedRequests.Kind.GROW, fields);
    }

    private GrowResult growNow(Job job, GrowRequest request) {
        boolean shared = sharing != null && sharing.arbitrates() && "worker".equals(role(request));
        if (shared && request.site() == null) {
            return arbitrated(job, request);
        }
        GridView all = claims.view(owner(job));
        if (request.site() != null && claims.known(request.site())
                && all.sites().stream().noneMatch(s -> s.site().equals(request.site()))) {
            return unreachableSite(job, request);
        }
        GridView asked = only(all, request.site());
        GridView view = onNetworkOf(job, asked);
        if (shared && !view.sites().isEmpty() && !claims.closedTo(owner(job)).contains(request.site())) {
            // pinned to a site its nodes reach and open to its owner: shared out within that site
            return arbitrated(job, request);
        }
        return placedAsItComes(job, request, asked, view);
    }

    /** A grow pinned to a site of the grid that cannot be reached now (its link or agent down): a refusal, not bad input. */
    private GrowResult unreachableSite(Job job, GrowRequest request) {
        String why = "site " + request.site() + " cannot be reached now (no word from its agent): nothing placed "
                + "there until it can";
        book.note(job, JobEvent.GROW_REFUSED, request.nodes() + " "
                + role(request) + " nodes: " + why + because(request.reason()));
        events.grew(GrowOutcome.REFUSED, GridReason.SITE_UNREACHABLE);
        return new GrowResult(job.id(), request.nodes(), 0, List.of(), why);
    }

    /**
     * A grow placed as it comes (fcfs, a master or orchestrator node, or a site closed to its owner): the
     * idle nodes of {@code view} (the sites {@code asked} whose nodes reach the instance's), or why none.
     */
    private GrowResult placedAsItComes(Job job, GrowRequest request, GridView asked, GridView view) {
        long id = job.id();
        int idle = view.sites().stream().mapToInt(SiteView::idleNodes).sum();
        int granted = Math.min(request.nodes(), idle);
        if (granted == 0) {
            String why = view.sites().isEmpty() ? unreachable(job, asked)
                    : "grid full: no idle node" + (request.site() == null ? "" : " on " + request.site())
                    + (view.sites().size() < asked.sites().size() ? " on the sites whose nodes reach this "
                    + "instance's (" + view.sites().stream().map(SiteView::site).collect(Collectors.joining(", ")) + ")"
                    : "") + Scheduler.singleTenantNote(claims.closedTo(owner(job)).stream()
                    .filter(s -> view.sites().stream().anyMatch(v -> v.site().equals(s))).toList());
            book.note(job, JobEvent.GROW_REFUSED, request.nodes() + " "
                    + role(request) + " nodes: " + why + because(request.reason()));
            events.grew(GrowOutcome.REFUSED, view.sites().isEmpty() ? GridReason.OTHER_NETWORK
                    : koala.arbitration.ShareReason.Kind.GRID_FULL);
            return new GrowResult(id, request.nodes(), 0, List.of(), why);
        }
        PlacementPolicy policy = JobConstraints.aroundGrow(new FlexibleClusterMinimization(), job, role(request),
                book.constrained(), book.all(), claims::network, claims.groupsOf());
        PlacementReason limit = null;
        if (policy instanceof SiteConstraints kept) {
            SiteConstraints.Room room = kept.room(new ComponentNeed(0, granted, null, List.of()), view);
            limit = room.limit();
            granted = room.nodes();
            if (granted == 0) {
                return refusedByConstraint(job, request, limit == null ? "no site may take one more keeping the "
                        + "hard constraints" : limit.text());
            }
        }
        PlacementDecision decision = policy.place(new JobNeed(Long.toString(id),
                List.of(new ComponentNeed(0, granted, null, List.of())), true), view);
        if (decision instanceof PlacementDecision.NotPlaced not) {
            return refusedByConstraint(job, request, not.reasons().stream().map(PlacementReason::text)
                    .collect(Collectors.joining("; ")));
        }
        PlacementDecision.Placed placed = (PlacementDecision.Placed) decision;
        List<String> nodes = claim(job, request, placed.assignments());
        String why = granted >= request.nodes() ? null : limit != null ? "partial: " + granted + " of "
                + request.nodes() + " nodes: " + limit.text() : "partial: " + granted + " of " + request.nodes()
                + " nodes, the grid has no more idle" + (request.site() == null ? "" : " on " + request.site());
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
        return new GrowResult(id, request.nodes(), granted, nodes, why);
    }

    /**
     * A grow no site can take keeping the hard placement constraints: refused, with the constraint named,
     * at once (a grow never waits in the queue; the runner decides what a refusal means).
     */
    private GrowResult refusedByConstraint(Job job, GrowRequest request, String why) {
        String reason = "placement constraints: " + why;
        book.note(job, JobEvent.GROW_REFUSED, request.nodes() + " " + role(request) + " nodes: " + reason
                + because(request.reason()));
        events.grew(GrowOutcome.REFUSED, PlacementReason.Kind.HARD_CONSTRAINT);
        return new GrowResult(job.id(), request.nodes(), 0, List.of(), reason);
    }

    /**
     * A worker grow on a shared grid: what the arbiter grants now (placed like any grow), and why not more.
     * A grow no site could take keeping the instance's hard constraints, however many nodes came free, is
     * refused at once naming the constraint, as a grow placed as it comes is: the arbiter takes nothing
     * back for nodes that could not be used.
     */
    private GrowResult arbitrated(Job job, GrowRequest request) {
        java.util.Optional<PlacementReason> nowhere = nowhere(job, request.site());
        if (nowhere.isPresent()) {
            return refusedByConstraint(job, request, nowhere.get().text());
        }
        Sharing.Outcome o = sharing.grow(job.id(), request, clock.instant());
        if (o.nodes().isEmpty()) {
            book.note(job, JobEvent.GROW_REFUSED, request.nodes() + " worker nodes: "
                    + o.reason() + because(request.reason()));
        }
        return new GrowResult(job.id(), request.nodes(), o.nodes().size(), o.nodes(), o.reason());
    }

    /**
     * Why no site whose nodes reach the instance's (of {@code site} alone, when the grow is pinned to it) could
     * take one more of its workers keeping the hard constraints, were a node free on each: none when one
     * could, or when nothing has a constraint.
     */
    private java.util.Optional<PlacementReason> nowhere(Job job, String site) {
        PlacementPolicy policy = workerPolicy(job);
        if (!(policy instanceof SiteConstraints kept)) {
            return java.util.Optional.empty();
        }
        GridView reach = within(onNetworkOf(job, claims.view(owner(job))), site);
        GridView oneFree = new GridView(reach.sites().stream().map(s -> new SiteView(s.site(), s.totalNodes(),
                Math.min(1, s.totalNodes()))).toList(), reach.files());
        SiteConstraints.Room room = kept.room(need(1), oneFree);
        return room.nodes() == 0 ? java.util.Optional.ofNullable(room.limit()) : java.util.Optional.empty();
    }

    private PlacementPolicy workerPolicy(Job job) {
        return JobConstraints.aroundGrow(new FlexibleClusterMinimization(), job, "worker", book.constrained(),
                book.all(), claims::network, claims.groupsOf());
    }

    private static ComponentNeed need(int nodes) {
        return new ComponentNeed(0, nodes, null, List.of());
    }

    /** The worker nodes {@code id} holds (or is claiming) now. */
    List<String> workers(Job job) {
        return job.heldNodes().stream().filter(n -> role(job, n).equals("worker")).map(NodeClaim::id).toList();
    }

    /**
     * Where part of a grant goes, and, when the hard placement constraints let fewer in than it was given,
     * the one that stopped it (null for none).
     */
    private record Placing(List<Assignment> assignments, PlacementReason limit) {
        static final Placing NONE = new Placing(List.of(), null);

        int nodes() {
            return assignments.stream().mapToInt(Assignment::nodes).sum();
        }
    }

    /**
     * Claims {@code count} worker nodes for allocation {@code id}, granted by the arbiter: running
     * {@code asked}, the allocation's own grow being decided, or else the last worker grow the
     * allocation itself asked for; on idle nodes first, the rest on the sites of {@code ended} (nodes
     * just ended for it, whose slots are coming free) — on {@code site} alone when the arbiter decided within
     * it, or on the site the grow they run was pinned to — all of them keeping the hard placement constraints
     * together. The ids claimed, and the constraint that let fewer in, named in the instance's history too
     * (the asker's answer carries it, through {@link Sharing}).
     */
    Sharing.Granted grantWorkers(long id, int count, List<String> ended, String reason,
                                 java.util.Optional<GrowRequest> asked, String site) {
        Job job = open(id);
        GrowRequest like = asked.or(() -> lastWorkerAsked(id)).orElse(null);
        if (like == null) {
            book.note(job, JobEvent.GROW_REFUSED, count + " worker nodes granted ("
                    + reason + ") but it never asked for workers: nothing to run on them");
            return new Sharing.Granted(List.of(), null);
        }
        // a grant decided within a site goes there; one like a pinned grow, to the grow's site
        String where = site != null ? site : like.site();
        GridView view = within(onNetworkOf(job, claims.view(owner(job))), where);
        int idle = view.sites().stream().mapToInt(SiteView::idleNodes).sum();
        PlacementPolicy policy = workerPolicy(job);
        Placing onIdle = onIdle(id, policy, Math.min(count, idle), view);
        Placing inSlots = inSlots(id, policy, count - onIdle.nodes(), ended.stream()
                .filter(n -> where == null || where.equals(siteOf(n))).toList(), onIdle.assignments(), view.files());
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

    /** {@code nodes} of a grant on the idle nodes of {@code view}, as many as the hard constraints let in. */
    private static Placing onIdle(long id, PlacementPolicy policy, int nodes, GridView view) {
        if (nodes <= 0) {
            return Placing.NONE;
        }
        PlacementReason limit = null;
        if (policy instanceof SiteConstraints kept) {
            SiteConstraints.Room room = kept.room(need(nodes), view);
            limit = room.limit();
            if (room.nodes() == 0) {
                return new Placing(List.of(), limit);
            }
            nodes = room.nodes();
        }
        return placed(id, policy, nodes, view, limit);
    }

    /**
     * {@code nodes} of a grant in the slots of the nodes just ended for it ({@code ended}), whose sites take
     * them in turn. With constraints, a site takes only what keeps the hard ones together with the nodes
     * {@code onIdle} placed in the same grant, and with each other: the turns give each site its slots, and
     * the constraints cut them down ({@link SiteConstraints#room} over those slots).
     */
    private Placing inSlots(long id, PlacementPolicy policy, int nodes, List<String> ended, List<Assignment> onIdle,
                            koala.placement.FileLocations files) {
        List<String> sites = ended.stream().map(this::siteOf).filter(java.util.Objects::nonNull).toList();
        if (nodes <= 0 || sites.isEmpty()) {
            return Placing.NONE;
        }
        List<Assignment> turns = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            turns.add(new Assignment(0, sites.get(i % sites.size()), 1));
        }
        if (!(policy instanceof SiteConstraints kept)) {
            return new Placing(turns, null);
        }
        Map<String, Integer> slots = new java.util.LinkedHashMap<>();
        turns.forEach(t -> slots.merge(t.site(), 1, Integer::sum));
        GridView coming = new GridView(slots.entrySet().stream().map(e -> new SiteView(e.getKey(), e.getValue(),
                e.getValue())).toList(), files);
        SiteConstraints together = kept.withPlaced(onIdle);
        SiteConstraints.Room room = together.room(need(nodes), coming);
        if (room.nodes() == 0) {
            return new Placing(List.of(), room.limit());
        }
        return placed(id, together, room.nodes(), coming, room.limit());
    }

    /** {@code nodes} placed by {@code policy} on {@code view}; none, and why, when it cannot. */
    private static Placing placed(long id, PlacementPolicy policy, int nodes, GridView view, PlacementReason limit) {
        PlacementDecision d = policy.place(new JobNeed(Long.toString(id), List.of(need(nodes)), true), view);
        if (d instanceof PlacementDecision.Placed p) {
            return new Placing(p.assignments(), limit);
        }
        List<PlacementReason> why = ((PlacementDecision.NotPlaced) d).reasons();
        return new Placing(List.of(), new PlacementReason(0, why.isEmpty() ? PlacementReason.Kind.HARD_CONSTRAINT
                : why.get(0).kind(), why.stream()
                .map(PlacementReason::text).collect(Collectors.joining("; "))));
    }

    /** Ends these worker nodes of allocation {@code id}: their pilots killed, the reason in its history. */
    void end(long id, List<String> nodes, JobEvent event, String reason) {
        Job job = open(id);
        for (String node : nodes) {
            NodeClaim claim = job.node(node);
            if (claim != null && claim.state().held()) {
                claims.kill(job, claim);
                book.save(job, claim.with(NodeState.RELEASED));
            }
        }
        book.note(job, event, reason);
    }

    /** Notes an arbitration decision about allocation {@code id} in its history. */
    void noteShare(long id, JobEvent event, String reason) {
        book.note(open(id), event, reason);
    }

    /** The site of node {@code node} (of any job), null when it is not known. */
    String siteOf(String node) {
        int dot = node.indexOf('.');
        if (dot < 0) {
            return null;
        }
        return book.find(Long.parseLong(node.substring(0, dot))).map(j -> j.node(node)).map(NodeClaim::site).orElse(null);
    }

    private static String role(Job job, NodeClaim n) {
        String role = job.description().components().get(n.component()).role();
        return role == null ? "worker" : role;
    }

    /**
     * The last worker grow allocation {@code id}'s own holder asked for (granted, promised or refused),
     * as a request to repeat: kept in the store, so a restarted scheduler grants an owed node like it.
     */
    private java.util.Optional<GrowRequest> lastWorkerAsked(long id) {
        return answers.state(WORKER_GROW + id).map(json -> {
            try {
                return Json.mapper().readValue(json, GrowRequest.class);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("unreadable stored worker grow of allocation " + id + ": "
                        + e.getMessage(), e);
            }
        });
    }

    private static final String WORKER_GROW = "allocation.worker-grow.";

    private void rememberWorkerGrow(long id, GrowRequest request) {
        if ("worker".equals(role(request))) {
            answers.saveState(WORKER_GROW + id, Json.write(request.withNodes(1).withRequestId(null)));
        }
    }

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
                request.site(), List.of(), role(request), null);
        List<ComponentSpec> components = new ArrayList<>(job.description().components());
        components.add(spec);
        JobDescription d = job.description();
        book.append(job, new JobDescription(d.source(), d.name(), d.kind(), d.placement(), d.priority(), components,
                d.framework(), d.position()));
        List<String> ids = new ArrayList<>();
        int rank = 0;
        String runner = request.environment() == null ? null
                : request.environment().get(koala.common.runner.RunnerClient.URL_VARIABLE);
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

    /** Gives back the named nodes; refuses (and changes nothing) if one is not this allocation's. */
    JobView release(long id, List<String> nodes, String reason) {
        Job job = open(id);
        if (nodes.isEmpty()) {
            throw new InvalidField("nodes", "empty: name the nodes to give back");
        }
        for (String node : nodes) {
            NodeClaim claim = job.node(node);
            if (claim == null) {
                throw new Conflict("node " + node + " is not a node of allocation " + id, "nodes");
            }
        }
        int released = 0;
        for (String node : nodes) {
            NodeClaim claim = job.node(node);
            if (claim.state().held()) {
                claims.kill(job, claim);
                book.save(job, claim.with(NodeState.RELEASED));
                released++;
            }
        }
        book.note(job, JobEvent.SHRANK, "released " + String.join(", ", nodes)
                + because(reason));
        events.shrank(GridEvents.ShrinkOutcome.RELEASED, GridReason.OWNER, released);
        return job.view();
    }

    JobView close(long id) {
        Job job = open(id);
        claims.fire(job, JobEvent.CLOSED, "closed by its owner");
        return job.view();
    }

    /** Ends the allocation as FAILED with its instance's cause (its master lost, say): every node given back. */
    JobView fail(long id, String reason) {
        Job job = open(id);
        claims.fire(job, JobEvent.BROKE, "the instance failed: " + reason);
        return job.view();
    }

    /** Releases the nodes whose pilots have not started within the claim time-out. */
    void checkClaims(Job job) {
        for (NodeClaim node : job.heldNodes()) {
            if (node.state() == NodeState.SUBMITTED && node.submittedAt() != null
                    && !clock.instant().isBefore(node.submittedAt().plus(claimTimeout))) {
                claims.kill(job, node);
                book.save(job, node.with(NodeState.RELEASED));
                book.note(job, JobEvent.CLAIM_TIMED_OUT, "node " + node.id() + " on "
                        + node.site() + " did not start within " + claimTimeout.toSeconds() + " s; released");
                events.claimFailed(node.site(), GridEvents.ClaimFailure.TIMED_OUT);
            }
        }
    }

    private Job open(long id) {
        Job job = book.get(id);
        if (!job.allocation()) {
            throw new Conflict("job " + id + " is not an allocation");
        }
        if (job.state().ended()) {
            throw new Conflict("allocation " + id + " is " + job.state());
        }
        return job;
    }

    private static final java.util.Set<String> ROLES = java.util.Set.of("master", "orchestrator", "worker");

    /**
     * An allocation's roles as its runner sent them: known roles, each once; tags a JDF may give; each
     * constraint one the JDF's reader takes, whose target, when it names no other job, instance or owner,
     * some role of the instance carries. Bad input, named by its field.
     */
    private static void check(List<RolePlacement> roles) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < roles.size(); i++) {
            RolePlacement r = roles.get(i);
            String at = "roles[" + i + "]";
            if (r == null || r.role() == null || !ROLES.contains(r.role())) {
                throw new InvalidField(at + ".role", "'" + (r == null ? null : r.role())
                        + "' is not master, orchestrator or worker");
            }
            if (!seen.add(r.role())) {
                throw new InvalidField(at + ".role", "'" + r.role() + "' given twice: one entry per role");
            }
            if (r.component() < 0) {
                throw new InvalidField(at + ".component", r.component() + ": a component's index is 0 or more");
            }
            for (String tag : r.tags()) {
                java.util.Optional<String> bad = koala.common.jdf.ConstraintSpec.tagProblem(tag);
                if (bad.isPresent()) {
                    throw new InvalidField(at + ".tags", bad.get());
                }
            }
        }
        for (int i = 0; i < roles.size(); i++) {
            List<String> constraints = roles.get(i).constraints();
            for (int j = 0; j < constraints.size(); j++) {
                String field = "roles[" + i + "].constraints[" + j + "]";
                koala.common.jdf.ConstraintSpec k;
                try {
                    k = koala.common.jdf.ConstraintSpec.parse(constraints.get(j));
                } catch (IllegalArgumentException e) {
                    throw new InvalidField(field, "'" + constraints.get(j) + "': " + e.getMessage());
                }
                if (!k.global() && roles.stream().noneMatch(r -> JobConstraints.roleTags(0, null, r.role(), roles)
                        .carries(koala.constraints.Tags.of(k.target())))) {
                    throw new InvalidField(field, "'" + constraints.get(j) + "': no role of this instance carries "
                            + String.join(",", k.target()) + " (a role's tags, role=R and component=N); name another "
                            + "job's or instance's nodes with job=ID, instance=ID or owner=NAME");
                }
            }
        }
    }

    /** An allocation's roles as stored ({@link koala.scheduler.storage.Store#saveRoles}). */
    static List<RolePlacement> roles(String json) {
        try {
            return List.of(Json.mapper().readValue(json, RolePlacement[].class));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable stored roles of an allocation: " + e.getMessage(), e);
        }
    }

    private void check(GrowRequest request) {
        if (request.nodes() < 1) {
            throw new InvalidField("nodes", request.nodes() + ": ask for at least 1 node");
        }
        if (request.executable() == null || !absolute(request.executable())) {
            throw new InvalidField("executable", "'" + request.executable() + "' must be an absolute path");
        }
        outputFile("stdout", request.stdout());
        outputFile("stderr", request.stderr());
    }

    private static void outputFile(String field, String path) {
        if (path != null && !absolute(path)) {
            throw new InvalidField(field, "'" + path + "' must be an absolute path");
        }
    }

    /** An absolute path, or one the node's launcher fills in, such as {@code ${KOALA_JAVA}}. */
    private static boolean absolute(String path) {
        return path.matches("/.*|\\$\\{[A-Za-z_][A-Za-z0-9_]*}(/.*)?");
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

    private static String owner(Job job) {
        return job.record().owner() == null ? "" : job.record().owner();
    }

    /** Why none of the sites asked for will do: their nodes cannot reach the instance's. */
    private String unreachable(Job job, GridView asked) {
        String sites = asked.sites().stream().map(SiteView::site).collect(Collectors.joining(", "));
        String network = job.nodes().stream().filter(n -> n.state().held()).findFirst()
                .map(n -> claims.network(n.site())).orElse("?");
        return sites + (asked.sites().size() == 1 ? "'s nodes cannot" : " nodes cannot") + " reach this instance's, "
                + "which are on network " + network + (network.equals("grid") ? " (the grid's own)" : " (site "
                + network + "'s private one)") + ": a site on another network cannot join it";
    }

    /** {@code view}'s site {@code site} alone (none when it is not in it); the whole view for a null site. */
    private static GridView within(GridView view, String site) {
        return site == null ? view : new GridView(view.sites().stream().filter(s -> s.site().equals(site)).toList(),
                view.files());
    }

    private static GridView only(GridView view, String site) {
        if (site == null) {
            return view;
        }
        if (view.sites().stream().noneMatch(s -> s.site().equals(site))) {
            throw new InvalidField("site", "no site '" + site + "' up in this grid (sites: " + view.sites()
                    .stream().map(SiteView::site).collect(Collectors.joining(", ")) + ")");
        }
        return new GridView(view.sites().stream().filter(s -> s.site().equals(site)).toList(), view.files());
    }

    private static String because(String reason) {
        return reason == null || reason.isBlank() ? "" : " (" + reason + ")";
    }

    private static String role(GrowRequest request) {
        return request.role() == null ? "worker" : request.role();
    }

    private static String describe(List<Assignment> assignments) {
        return assignments.stream().map(a -> a.nodes() + " on " + a.site()).collect(Collectors.joining(", "));
    }

    /** {@code base} with the components its grows added (stored as JSON, in order) after its own. */
    static JobDescription withComponents(JobDescription base, List<String> grown) {
        List<ComponentSpec> components = new ArrayList<>(base.components());
        for (String json : grown) {
            try {
                components.add(Json.mapper().readValue(json, ComponentSpec.class));
            } catch (java.io.IOException e) {
                throw new IllegalStateException("unreadable stored component: " + e.getMessage(), e);
            }
        }
        return new JobDescription(base.source(), base.name(), base.kind(), base.placement(), base.priority(), components,
                base.framework(), base.position());
    }

    private static GrowResult growResult(String json) {
        try {
            return Json.mapper().readValue(json, GrowResult.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable stored answer to a grow: " + e.getMessage(), e);
        }
    }

    static Function<String, JobDescription> reader() {
        return json -> {
            try {
                return Json.mapper().readValue(json, JobDescription.class);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("unreadable stored allocation: " + e.getMessage(), e);
            }
        };
    }
}
