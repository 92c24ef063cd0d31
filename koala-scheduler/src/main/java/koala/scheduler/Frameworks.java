package koala.scheduler;

import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import koala.common.api.FrameworkRegistration;
import koala.common.api.FrameworkView;
import koala.common.api.MasterAddress;
import koala.common.failure.Conflict;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.fjm.FrameworkRecord;
import koala.scheduler.fjm.FrameworkRegistry;
import koala.scheduler.storage.Store;

/**
 * The FrameworkJobManager inside the scheduler: its registry of instances, each shown together
 * with the allocation it holds (nodes per role, sites, state, grows and shrinks).
 */
final class Frameworks {
    private final FrameworkRegistry registry;
    private final JobBook book;
    /** The instance's place in the shared grid, for its view; null when sharing has not seen it. */
    private java.util.function.BiFunction<Long, Integer, FrameworkView.ShareLine> share = (id, holds) -> null;
    /** A site's provisioning defaults ({@code site.S.provisioning.*}), for the settings its view shows. */
    private java.util.function.Function<String, Map<String, String>> siteDefaults = site -> Map.of();
    /** Each instance's initial workers, counted once from its JDF (which never changes). */
    private final Map<Long, Integer> initialWorkers = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Integer> eldest) {
            return size() > 1024;
        }
    };

    /** The network a site's nodes are on ({@link Pilots#network}), for the audit of an instance's constraints. */
    private java.util.function.Function<String, String> networkOf = site -> "grid";
    /** The admin's groups of a site's host, for the same audit. */
    private JobConstraints.GroupsOf groupsOf = JobConstraints.GroupsOf.declared(Map.of());

    void networks(java.util.function.Function<String, String> networks) {
        this.networkOf = networks;
    }

    void groups(JobConstraints.GroupsOf groups) {
        this.groupsOf = groups;
    }

    Frameworks(Store store, JobBook book, InstantSource clock) {
        this.registry = new FrameworkRegistry(store, clock);
        this.book = book;
    }

    void shareLines(java.util.function.BiFunction<Long, Integer, FrameworkView.ShareLine> lines) {
        this.share = lines;
    }

    /** Where the views find a site's provisioning defaults (the grid configuration's, as sharing reads them). */
    void siteDefaults(java.util.function.Function<String, Map<String, String>> defaults) {
        this.siteDefaults = defaults;
    }

    FrameworkView register(FrameworkRegistration r) {
        Job allocation = book.find(r.allocation()).filter(Job::allocation).orElseThrow(() -> new Conflict(
                "allocation: job " + r.allocation() + " is not an allocation", "allocation"));
        if (allocation.state().ended()) {
            throw new Conflict("allocation: allocation " + r.allocation() + " is " + allocation.state(), "allocation");
        }
        return view(registry.register(r.allocation(), r.name(), r.jdfFile(), r.jdf(), r.policy(), r.parameters(),
                r.runner(), r.runnerState()));
    }

    FrameworkView master(long id, MasterAddress master) {
        FrameworkRecord record = registry.get(id);
        if (master.node() != null && book.get(record.id()).node(master.node()) == null) {
            throw new Conflict("node: " + master.node() + " is not a node of instance " + id, "node");
        }
        return view(registry.master(id, master.node(), master.address()));
    }

    /** What the FrameworkJobManager keeps of instance {@code id}, if it was registered. */
    java.util.Optional<koala.scheduler.fjm.FrameworkRecord> find(long id) {
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
                        java.nio.file.Path.of(r.runnerState()), book.get(r.id()).record().owner()))
                .toList();
    }

    /**
     * The running instances as sharing sees them: their worker nodes, and the weight and minimum
     * share of their settings (JDF over the home site's defaults, as {@code provisioning} resolves
     * them; {@code siteDefaults} gives a site's {@code site.S.provisioning.*}). The scheduler resolves
     * them itself rather than take a runner's word.
     */
    List<Sharing.HeldTenant> sharing(Allocations allocations, java.util.function.Function<String, Map<String, String>> siteDefaults) {
        return running(siteDefaults).stream().map(r -> new Sharing.HeldTenant(r.record().id(), r.settings().weight(),
                r.settings().minShare(), allocations.workers(r.allocation()))).toList();
    }

    /** A running instance: its record, its allocation and its settings as the scheduler resolves them. */
    record Running(FrameworkRecord record, Job allocation, koala.provisioning.ProvisioningSettings settings) {
    }

    /**
     * The running instances with their settings ({@link #sharing}). A running allocation is always in
     * the book's memory (only ended jobs leave it), so this reads nothing from the store.
     */
    List<Running> running(java.util.function.Function<String, Map<String, String>> siteDefaults) {
        List<Running> running = new java.util.ArrayList<>();
        for (FrameworkRecord r : registry.all()) {
            java.util.Optional<Job> job = book.live(r.id()).filter(j -> j.state() == koala.scheduler.state.JobState.RUNNING);
            job.ifPresent(j -> running.add(new Running(r, j, settings(r, j, siteDefaults))));
        }
        return running;
    }

    private static koala.provisioning.ProvisioningSettings settings(FrameworkRecord r, Job job,
            java.util.function.Function<String, Map<String, String>> siteDefaults) {
        try {
            return resolve(r, job, siteDefaults, koala.provisioning.SettingsLayer.parse(r.parameters())).settings();
        } catch (RuntimeException e) {
            // the runner refused such settings already; share it out as an instance with the defaults
            return koala.provisioning.SettingsResolver.resolve(koala.provisioning.SettingsLayer.EMPTY).settings();
        }
    }

    /** The instance's settings: {@code jdf} over the defaults of its home site (its master's) over the built-in ones. */
    private static koala.provisioning.ResolvedSettings resolve(FrameworkRecord r, Job job,
            java.util.function.Function<String, Map<String, String>> siteDefaults, koala.provisioning.SettingsLayer jdf) {
        NodeClaim master = r.masterNode() == null ? null : job.node(r.masterNode());
        String site = master != null ? master.site() : "";
        return koala.provisioning.SettingsResolver.resolve(site, koala.provisioning.SettingsLayer.parse(
                site.isEmpty() ? Map.of() : siteDefaults.apply(site)), jdf);
    }

    /**
     * The settings a view shows, with where each came from, resolved as the runner resolves them: the
     * JDF's values (its initial workers counted from its worker components) over the home site's
     * defaults over the built-in ones. When the site's defaults are refused now, the JDF's over the
     * built-in ones (the runner keeps what it had, which the scheduler cannot see); none when the
     * JDF's own are refused.
     */
    private List<FrameworkView.Setting> settingLines(FrameworkRecord r, Job job) {
        koala.provisioning.ResolvedSettings resolved;
        try {
            resolved = resolvedForView(r, job, jdfLayer(r));
        } catch (RuntimeException e) {
            return List.of();
        }
        return java.util.Arrays.stream(koala.provisioning.Setting.values()).map(s -> new FrameworkView.Setting(s.key(),
                s.format(resolved.settings()), resolved.origin(s).toString())).toList();
    }

    private koala.provisioning.ResolvedSettings resolvedForView(FrameworkRecord r, Job job,
                                                               koala.provisioning.SettingsLayer jdf) {
        try {
            return resolve(r, job, siteDefaults, jdf);
        } catch (RuntimeException e) {
            return koala.provisioning.SettingsResolver.resolve(jdf);
        }
    }

    /** The JDF's own settings, with its initial workers when its text says how many. */
    private koala.provisioning.SettingsLayer jdfLayer(FrameworkRecord r) {
        koala.provisioning.SettingsLayer layer = koala.provisioning.SettingsLayer.parse(r.parameters());
        Integer workers = initialWorkers.computeIfAbsent(r.id(), id -> workersIn(r));
        return workers < 0 ? layer : layer.withInitialWorkers(workers);
    }

    /** The worker components' nodes in the JDF's text; -1 when it is no framework JDF the parser reads. */
    private static int workersIn(FrameworkRecord r) {
        try {
            koala.common.jdf.JobDescription jdf = koala.common.jdf.JdfParser.parse(
                    r.jdfFile() == null ? "-" : r.jdfFile(), r.jdf() == null ? "" : r.jdf(),
                    koala.common.jdf.ClusterCatalog.NONE);
            if (jdf.components().stream().noneMatch(c -> c.role() != null)) {
                return -1;
            }
            return jdf.components().stream().filter(c -> "worker".equals(c.role())).mapToInt(c -> c.count()).sum();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private FrameworkView view(FrameworkRecord r) {
        Job job = book.get(r.id());
        Map<String, Integer> perRole = new TreeMap<>();
        for (NodeClaim n : job.heldNodes()) {
            String role = job.description().components().get(n.component()).role();
            perRole.merge(role == null ? "worker" : role, 1, Integer::sum);
        }
        List<String> sites = job.heldNodes().stream().map(NodeClaim::site).distinct().sorted().toList();
        // a master whose node is no longer held (lost, released) serves no one: none is shown until the next reports in
        NodeClaim masterNode = r.masterNode() == null ? null : job.node(r.masterNode());
        MasterAddress master = r.masterAddress() == null || masterNode == null || !masterNode.state().held() ? null
                : new MasterAddress(r.masterNode(), r.masterAddress());
        return new FrameworkView(r.id(), r.name(), r.policy(), r.parameters(), r.runner(), job.state().name(), sites,
                master, perRole, r.registeredAt(), job.history(), job.state().ended() ? null
                : share.apply(r.id(), perRole.getOrDefault("worker", 0)), job.record().owner(), r.runnerState(),
                settingLines(r, job), constraintLines(job), job.state().ended() ? List.of()
                : JobConstraints.brokenNow(job, book.all(), networkOf, groupsOf));
    }

    /** The instance's constraints role by role, as its runner sent them, and as the scheduler keeps them. */
    private static List<FrameworkView.ConstraintLine> constraintLines(Job job) {
        List<FrameworkView.ConstraintLine> out = new java.util.ArrayList<>();
        List<koala.constraints.Constraint> kept = JobConstraints.constraintsOf(job);
        int i = 0;
        for (koala.common.api.RolePlacement r : job.roles()) {
            for (String text : r.constraints()) {
                koala.constraints.Constraint k = kept.get(i++);
                out.add(new FrameworkView.ConstraintLine(r.role(), text, k.hard(), k.describe()));
            }
        }
        return out;
    }
}
