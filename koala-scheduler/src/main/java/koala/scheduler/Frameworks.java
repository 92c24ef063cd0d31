package koala.scheduler;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.MasterAddress;
import koala.fjm.FrameworkRecord;
import koala.fjm.FrameworkRegistry;
import koala.fjm.FrameworkViews;
import koala.fjm.HeldAllocation;
import koala.provisioning.ProvisioningSettings;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.Store;

/**
 * The FrameworkJobManager ({@code koala.fjm}) wired into the scheduler: its registry kept in the
 * scheduler's store, and each instance handed to it with the allocation it holds as the job book has
 * it now (nodes per role, sites, state, grows and shrinks), its share of the grid and the constraints
 * its nodes break.
 */
final class Frameworks {
    private final FrameworkRegistry registry;
    private final FrameworkViews views;
    private final JobBook book;
    /** The instance's place in the shared grid, for its view; null when sharing has not seen it. */
    private BiFunction<Long, Integer, FrameworkView.ShareLine> share = (id, holds) -> null;
    /** A site's provisioning defaults ({@code site.S.provisioning.*}), for the settings its view shows. */
    private Function<String, Map<String, String>> siteDefaults = site -> Map.of();

    /** The network a site's nodes are on ({@link Pilots#network}), for the audit of an instance's constraints. */
    private Function<String, String> networkOf = site -> "grid";
    /** The admin's groups of a site's host, for the same audit. */
    private JobConstraints.GroupsOf groupsOf = JobConstraints.GroupsOf.declared(Map.of());

    void networks(Function<String, String> networks) {
        this.networkOf = networks;
    }

    void groups(JobConstraints.GroupsOf groups) {
        this.groupsOf = groups;
    }

    Frameworks(Store store, JobBook book, InstantSource clock) {
        this.registry = new FrameworkRegistry(store, clock);
        this.views = new FrameworkViews(site -> siteDefaults.apply(site));
        this.book = book;
    }

    void shareLines(BiFunction<Long, Integer, FrameworkView.ShareLine> lines) {
        this.share = lines;
    }

    /** Where the views find a site's provisioning defaults (the grid configuration's, as sharing reads them). */
    void siteDefaults(Function<String, Map<String, String>> defaults) {
        this.siteDefaults = defaults;
    }

    /** A runner that does not say its host is taken to run on this scheduler's, as every runner did before. */
    FrameworkView register(FrameworkRegistration r) {
        Optional<HeldAllocation> allocation = book.find(r.allocation()).filter(Job::allocation).map(Frameworks::held);
        FrameworkRegistration hosted = r.runnerHost() != null ? r : new FrameworkRegistration(r.allocation(), r.name(),
                r.jdfFile(), r.jdf(), r.policy(), r.parameters(), r.runner(), r.runnerState(), SiteAgents.thisHost());
        return view(registry.register(hosted, allocation));
    }

    /** A runner is being started in the place of instance {@code id}'s, on {@code host} at {@code url}: its generation. */
    long replaceRunner(long id, String host, String url) {
        return registry.replaceRunner(id, host, url).runnerGeneration();
    }

    /** The runners' addresses of the instances whose allocations are live. */
    java.util.Set<String> liveRunners() {
        return registry.all().stream().filter(r -> r.runner() != null)
                .filter(r -> book.find(r.id()).filter(j -> !j.state().ended()).isPresent())
                .map(FrameworkRecord::runner).collect(java.util.stream.Collectors.toSet());
    }

    /**
     * {@code task}, of instance {@code id}'s node, with the address of the instance's runner in force: the one
     * its components were given at their grow, unless a runner was started elsewhere in that one's place
     * ({@link #replaceRunner}) since. Any other task as it is.
     */
    koala.api.scheduler.NodeTask withRunnerInForce(long id, koala.api.scheduler.NodeTask task) {
        String given = task.environment() == null ? null : task.environment().get(koala.api.runner.RunnerClient.URL_VARIABLE);
        String now = given == null ? null : registry.find(id).map(FrameworkRecord::runner).orElse(null);
        if (now == null || now.equals(given)) {
            return task;
        }
        Map<String, String> env = new java.util.HashMap<>(task.environment());
        env.put(koala.api.runner.RunnerClient.URL_VARIABLE, now);
        return task.withEnvironment(env);
    }

    /** Passes when a runner of {@code generation} is instance {@code id}'s in force ({@link FrameworkRegistry#fence}). */
    void fence(long id, long generation) {
        registry.fence(id, generation);
    }

    FrameworkView master(long id, MasterAddress master) {
        FrameworkRecord record = registry.get(id);
        return view(registry.master(id, master, held(book.get(record.id()))));
    }

    /** What the FrameworkJobManager keeps of instance {@code id}, if it was registered. */
    Optional<FrameworkRecord> find(long id) {
        return registry.find(id);
    }

    FrameworkView get(long id) {
        return view(registry.get(id));
    }

    /** Every instance whose allocation the scheduler still knows (the store forgets old ended ones). */
    List<FrameworkView> all() {
        return registry.all().stream().filter(r -> book.find(r.id()).isPresent()).map(this::view).toList();
    }

    /** The running instances whose runners the scheduler restarts should they die, with their owners. */
    List<RunnerSupervisor.Watched> watched() {
        return registry.all().stream().filter(r -> r.runnerState() != null && r.runner() != null)
                .filter(r -> book.find(r.id()).filter(j -> !j.state().ended() && j.record().owner() != null).isPresent())
                .map(r -> new RunnerSupervisor.Watched(r.id(), java.net.URI.create(r.runner()),
                        java.nio.file.Path.of(r.runnerState()), book.get(r.id()).record().owner(), r.runnerHost(),
                        r.runnerGeneration()))
                .toList();
    }

    /**
     * The running instances as sharing sees them: their worker nodes, and the weight and minimum
     * share of their settings ({@link FrameworkViews#settings}; {@code siteDefaults} gives a site's
     * {@code site.S.provisioning.*}).
     */
    List<Sharing.HeldTenant> sharing(Allocations allocations, Function<String, Map<String, String>> siteDefaults) {
        return running(siteDefaults).stream().map(r -> new Sharing.HeldTenant(r.record().id(), r.settings().weight(),
                r.settings().minShare(), allocations.workers(r.allocation()), allocations.perWorker(r.allocation())))
                .toList();
    }

    /** A running instance: its record, its allocation and its settings as the scheduler resolves them. */
    record Running(FrameworkRecord record, Job allocation, ProvisioningSettings settings) {
    }

    /**
     * The running instances with their settings ({@link #sharing}). A running allocation is always in
     * the book's memory (only ended jobs leave it), so this reads nothing from the store.
     */
    List<Running> running(Function<String, Map<String, String>> siteDefaults) {
        List<Running> running = new ArrayList<>();
        for (FrameworkRecord r : registry.all()) {
            Optional<Job> job = book.live(r.id()).filter(j -> j.state() == JobState.RUNNING);
            job.ifPresent(j -> running.add(new Running(r, j, FrameworkViews.settings(r, node -> siteOf(j, node),
                    siteDefaults))));
        }
        return running;
    }

    private static String siteOf(Job job, String node) {
        NodeClaim n = job.node(node);
        return n == null ? null : n.site();
    }

    private FrameworkView view(FrameworkRecord r) {
        Job job = book.get(r.id());
        return views.view(r, held(job), workers -> share.apply(r.id(), workers),
                () -> JobConstraints.brokenNow(job, book.all(), networkOf, groupsOf));
    }

    /** The allocation {@code job} as the FrameworkJobManager reads it. */
    private static HeldAllocation held(Job job) {
        List<HeldAllocation.Node> nodes = job.nodes().stream().map(n -> new HeldAllocation.Node(n.id(), n.site(),
                role(job, n), n.state().held())).toList();
        return new HeldAllocation(job.state().name(), job.state().ended(), job.record().owner(), nodes, job.history(),
                constraintLines(job));
    }

    /** What the node's component is for (master, orchestrator, worker); null when it says nothing. */
    private static String role(Job job, NodeClaim n) {
        List<koala.jdf.ComponentSpec> components = job.description().components();
        return n.component() < components.size() ? components.get(n.component()).role() : null;
    }

    /** The instance's constraints role by role, as its runner sent them, and as the scheduler keeps them. */
    private static List<FrameworkView.ConstraintLine> constraintLines(Job job) {
        List<FrameworkView.ConstraintLine> out = new ArrayList<>();
        List<koala.constraints.Constraint> kept = JobConstraints.constraintsOf(job);
        int i = 0;
        for (koala.api.scheduler.RolePlacement r : job.roles()) {
            for (String text : r.constraints()) {
                koala.constraints.Constraint k = kept.get(i++);
                out.add(new FrameworkView.ConstraintLine(r.role(), text, k.hard(), k.describe()));
            }
        }
        return out;
    }
}
