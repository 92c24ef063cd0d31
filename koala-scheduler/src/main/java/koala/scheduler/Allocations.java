package koala.scheduler;

import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.RolePlacement;
import koala.common.failure.Conflict;
import koala.common.failure.InvalidField;
import koala.common.json.Json;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.jdf.JobKind;
import koala.placement.GridView;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.metrics.GridEvents;
import koala.scheduler.metrics.GridEvents.GridReason;
import koala.scheduler.state.JobEvent;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.JobRecord;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Allocations: what framework runners hold. An allocation is a job that runs from the moment it is
 * opened and whose nodes its owner adds (grow, {@link Grows}) and gives back (release) while it runs.
 * A node whose pilot has not started within the claim time-out is released, and the runner told so
 * through the allocation's nodes. Here: an allocation's life — opened, its nodes released or ended,
 * closed or failed — and the checks that a job named is an allocation that runs.
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

        /**
         * The same for nodes that each ask for {@code perNode}: host by host, with what is free of each
         * host's resources, when they ask for more than a core ({@link Scheduler#gridViewFor(String, Resources)}).
         */
        default GridView view(String owner, koala.placement.Resources perNode) {
            return view(owner);
        }

        /** Whether {@code site} is one of the grid's, up or not. */
        boolean known(String site);

        /** The single-tenant sites closed to {@code owner}'s work now ({@link Scheduler#closedTo}). */
        List<String> closedTo(String owner);

        String token();

        /** The network {@code site}'s nodes are on ({@link Pilots#network}). */
        String network(String site);

        void fire(Job job, JobEvent event, String reason);

        /** Makes ready, off the loop, the way {@code site}'s nodes reach {@code url} (a runner's). */
        void prepare(String site, String url);
    }

    private final JobBook book;
    private final AllocationRequestIds ids;
    private final Grows grows;
    private final Claims claims;
    private final InstantSource clock;
    private final java.time.Duration claimTimeout;
    private final GridEvents events;

    /** @param policies how a grow's placement policy is chosen: as a job's ({@link JobPolicies#forGrow}) */
    Allocations(JobBook book, koala.scheduler.storage.Store store, Claims claims, JobPolicies policies,
                InstantSource clock, java.time.Duration claimTimeout, GridEvents events) {
        this.book = book;
        this.ids = new AllocationRequestIds(store, clock);
        this.grows = new Grows(book, store, ids, claims, policies, clock, events);
        this.claims = claims;
        this.clock = clock;
        this.claimTimeout = claimTimeout;
        this.events = events;
    }

    void sharing(Sharing sharing) {
        grows.sharing(sharing);
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
        List<RolePlacement> given = roles == null ? List.of() : roles;
        AllocationInput.checkRoles(given);
        String who = owner == null ? "" : owner;
        java.util.Optional<Job> done = ids.opened(who, requestId, holder, given).flatMap(book::find);
        if (done.isPresent()) {
            return done.get().view();
        }
        JobDescription empty = new JobDescription("-", holder, JobKind.FRAMEWORK, null, "high", List.of(), Map.of(), null);
        // its grows are flexible components, placed by the grid's policy for flexible work (JobPolicies)
        JobRecord record = new JobRecord(book.nextId(), holder, "-", Json.write(empty), KIND, JobState.RUNNING,
                JobPolicies.name(empty.placement(), empty.kind(), null), "high", 0, 0, null, clock.instant(), owner);
        Job job = new Job(record, empty);
        job.roles(given);
        ids.rememberOpen(who, requestId, holder, given, job.id());
        book.add(job);
        book.record(job, null, JobState.RUNNING, JobEvent.ALLOCATED, "opened by " + holder + " of " + owner);
        LOG.info("allocation {} opened by {} of {}", job.id(), holder, owner);
        return job.view();
    }

    /**
     * Grows the allocation ({@link Grows#grow}). A request named {@code requestId} that was carried out before
     * is answered as it was then, and nothing more is claimed: a retry never grants the nodes twice. The
     * name used before for a grow that asked something else is a {@link koala.common.failure.Conflict}
     * ({@link NamedRequests}).
     */
    GrowResult grow(long id, GrowRequest request) {
        return grows.grow(open(id), request);
    }

    /** Claims worker nodes the arbiter granted to allocation {@code id} ({@link Grows#grantWorkers}). */
    Sharing.Granted grantWorkers(long id, int count, List<String> ended, String reason,
                                 java.util.Optional<GrowRequest> asked, String site) {
        return grows.grantWorkers(open(id), count, ended, reason, asked, site, this::ended);
    }

    /** Notes something that happened to allocation {@code id}'s holder in its history (its runner restarted, say). */
    void note(long id, JobEvent event, String reason) {
        Job job = open(id);
        book.note(job, event, reason);
    }

    /** The worker nodes {@code id} holds (or is claiming) now. */
    List<String> workers(Job job) {
        return job.heldNodes().stream().filter(n -> role(job, n).equals("worker")).map(NodeClaim::id).toList();
    }

    /**
     * What each of {@code job}'s workers asks for: its last worker component's {@code cores}, {@code memory}
     * and {@code gpus} (a worker grow's, once it grew), one core when it has none.
     */
    koala.placement.Resources perWorker(Job job) {
        List<ComponentSpec> components = job.description().components();
        for (int i = components.size() - 1; i >= 0; i--) {
            ComponentSpec c = components.get(i);
            if (c.role() == null || c.role().equals("worker")) {
                return NodeNeeds.perNode(c.resources());
            }
        }
        return koala.placement.Resources.NODE;
    }

    /**
     * Node {@code node} (of any job) as a grant counts it once ended: its site, its host and what it takes of
     * it ({@link NodeNeeds#perNode(ComponentSpec)}); null when not known.
     */
    Grows.Ended ended(String node) {
        return claim(node, (j, n) -> new Grows.Ended(n.site(), n.host(), NodeNeeds.perNode(j.description(), n)));
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
                + Grows.because(reason));
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
        return claim(node, (j, n) -> n.site());
    }

    /** {@code what} of node {@code node} (of any job, its id {@code JOB.COMPONENT.RANK}) and its job; null when not known. */
    private <T> T claim(String node, java.util.function.BiFunction<Job, NodeClaim, T> what) {
        int dot = node.indexOf('.');
        if (dot < 0) {
            return null;
        }
        return book.find(Long.parseLong(node.substring(0, dot))).flatMap(j -> java.util.Optional.ofNullable(j.node(node))
                .map(n -> what.apply(j, n))).orElse(null);
    }

    private static String role(Job job, NodeClaim n) {
        String role = job.description().components().get(n.component()).role();
        return role == null ? "worker" : role;
    }
}
