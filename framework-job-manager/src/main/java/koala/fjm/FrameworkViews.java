package koala.fjm;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.MasterAddress;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.provisioning.ProvisioningSettings;
import koala.provisioning.ResolvedSettings;
import koala.provisioning.Setting;
import koala.provisioning.SettingsLayer;
import koala.provisioning.SettingsResolver;

/**
 * A framework instance as {@code koala frameworks} and the live page show it: the registry's record
 * put together with the allocation it holds, and the instance's provisioning settings resolved as its
 * runner resolves them.
 *
 * <p>The settings are the JDF's values (its {@code parameters}, with its initial workers counted from
 * its worker components) over the defaults of the instance's <em>home site</em> — the site of its
 * master's node, none until the master has reported — over the built-in ones. A view shows each with
 * where it came from; sharing weighs the instance by them ({@link #settings}). The scheduler resolves
 * them itself rather than take a runner's word.
 */
public final class FrameworkViews {
    /** A site's provisioning defaults ({@code site.S.provisioning.*}), for the settings a view shows. */
    private final Function<String, Map<String, String>> siteDefaults;
    /** Each instance's initial workers, counted once from its JDF (which never changes). */
    private final Map<Long, Integer> initialWorkers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Integer> eldest) {
            return size() > 1024;
        }
    };

    /** Each instance's roles' sizes, read once from its JDF (which never changes). */
    private final Map<Long, List<FrameworkView.RoleSize>> roleSizes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, List<FrameworkView.RoleSize>> eldest) {
            return size() > 1024;
        }
    };

    /** @param siteDefaults a site's provisioning defaults, as the grid configuration gives them now */
    public FrameworkViews(Function<String, Map<String, String>> siteDefaults) {
        this.siteDefaults = siteDefaults;
    }

    /**
     * The instance {@code r} holding {@code allocation}: its nodes per role (a node whose component
     * names no role is a worker), the sites of its held nodes (sorted), its master — none while the
     * master's node is not held: a master on a lost or released node serves no one, and none is shown
     * until the next reports in — and its settings in force.
     *
     * @param share     its place in the shared grid now, given the worker nodes it holds; not asked (none
     *                  shown) once it has ended
     * @param brokenNow the constraints that where its nodes are now breaks; not asked (none) once it has ended
     */
    public FrameworkView view(FrameworkRecord r, HeldAllocation allocation, IntFunction<FrameworkView.ShareLine> share,
                              Supplier<List<String>> brokenNow) {
        Map<String, Integer> perRole = new TreeMap<>();
        for (HeldAllocation.Node n : allocation.held()) {
            perRole.merge(n.role() == null ? "worker" : n.role(), 1, Integer::sum);
        }
        List<String> sites = allocation.held().stream().map(HeldAllocation.Node::site).distinct().sorted().toList();
        boolean masterHeld = r.masterNode() != null && allocation.node(r.masterNode()).filter(HeldAllocation.Node::held)
                .isPresent();
        MasterAddress master = r.masterAddress() == null || !masterHeld ? null
                : new MasterAddress(r.masterNode(), r.masterAddress());
        return new FrameworkView(r.id(), r.name(), r.policy(), r.parameters(), r.runner(), allocation.state(), sites,
                master, perRole, r.registeredAt(), allocation.history(),
                allocation.ended() ? null : share.apply(perRole.getOrDefault("worker", 0)),
                allocation.owner(), r.runnerState(), settingLines(r, allocation), allocation.constraints(),
                allocation.ended() ? List.of() : brokenNow.get(), roleSizes.computeIfAbsent(r.id(), id -> sizesIn(r)));
    }

    /**
     * What each node of a role asks of its host in the JDF's text, for the roles whose components ask for
     * any cores, memory or GPUs ({@code (cores = 1)} alone asks nothing), one entry per distinct size of a
     * role, in the JDF's order; none when it is no JDF the parser reads.
     */
    static List<FrameworkView.RoleSize> sizesIn(FrameworkRecord r) {
        try {
            JobDescription jdf = JdfParser.parse(r.jdfFile() == null ? "-" : r.jdfFile(), r.jdf() == null ? "" : r.jdf(),
                    ClusterCatalog.NONE);
            return jdf.components().stream().filter(c -> !c.resources().equals(koala.jdf.NodeResources.DEFAULT))
                    .map(c -> new FrameworkView.RoleSize(c.role() == null ? "worker" : c.role(), c.resources().cores(),
                            c.resources().memoryMiB(), c.resources().gpus())).distinct().toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /**
     * The settings sharing weighs a running instance by (its weight and minimum share among them). When
     * they cannot be resolved — the runner refused such settings already — the built-in defaults: the
     * instance is shared out as one with none of its own.
     *
     * @param siteOfNode the site of one of the instance's nodes; null for a node it does not know
     */
    public static ProvisioningSettings settings(FrameworkRecord r, Function<String, String> siteOfNode,
                                                Function<String, Map<String, String>> siteDefaults) {
        try {
            return resolve(r, siteOfNode, siteDefaults, SettingsLayer.parse(r.parameters())).settings();
        } catch (RuntimeException e) {
            return SettingsResolver.resolve(SettingsLayer.EMPTY).settings();
        }
    }

    /** {@code jdf} over the defaults of the instance's home site (its master's) over the built-in ones. */
    private static ResolvedSettings resolve(FrameworkRecord r, Function<String, String> siteOfNode,
                                            Function<String, Map<String, String>> siteDefaults, SettingsLayer jdf) {
        String site = r.masterNode() == null ? null : siteOfNode.apply(r.masterNode());
        site = site == null ? "" : site;
        return SettingsResolver.resolve(site, SettingsLayer.parse(site.isEmpty() ? Map.of() : siteDefaults.apply(site)),
                jdf);
    }

    /**
     * The settings a view shows, with where each came from. When the home site's defaults are refused
     * now, the JDF's over the built-in ones (the runner keeps what it had, which the scheduler cannot
     * see); none when the JDF's own are refused.
     */
    private List<FrameworkView.Setting> settingLines(FrameworkRecord r, HeldAllocation allocation) {
        ResolvedSettings resolved;
        try {
            SettingsLayer jdf = jdfLayer(r);
            resolved = resolvedForView(r, allocation, jdf);
        } catch (RuntimeException e) {
            return List.of();
        }
        return Arrays.stream(Setting.values()).map(s -> new FrameworkView.Setting(s.key(), s.format(resolved.settings()),
                resolved.origin(s).toString())).toList();
    }

    private ResolvedSettings resolvedForView(FrameworkRecord r, HeldAllocation allocation, SettingsLayer jdf) {
        try {
            return resolve(r, id -> allocation.node(id).map(HeldAllocation.Node::site).orElse(null), siteDefaults, jdf);
        } catch (RuntimeException e) {
            return SettingsResolver.resolve(jdf);
        }
    }

    /** The JDF's own settings, with its initial workers when its text says how many. */
    private SettingsLayer jdfLayer(FrameworkRecord r) {
        SettingsLayer layer = SettingsLayer.parse(r.parameters());
        Integer workers = initialWorkers.computeIfAbsent(r.id(), id -> workersIn(r));
        return workers < 0 ? layer : layer.withInitialWorkers(workers);
    }

    /** The worker components' nodes in the JDF's text; -1 when it is no framework JDF the parser reads. */
    static int workersIn(FrameworkRecord r) {
        try {
            JobDescription jdf = JdfParser.parse(r.jdfFile() == null ? "-" : r.jdfFile(), r.jdf() == null ? "" : r.jdf(),
                    ClusterCatalog.NONE);
            if (jdf.components().stream().noneMatch(c -> c.role() != null)) {
                return -1;
            }
            return jdf.components().stream().filter(c -> "worker".equals(c.role())).mapToInt(c -> c.count()).sum();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
