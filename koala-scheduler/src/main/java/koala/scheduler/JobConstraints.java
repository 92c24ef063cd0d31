package koala.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.RolePlacement;
import koala.constraints.Audit;
import koala.constraints.ClusterState;
import koala.constraints.Constraint;
import koala.constraints.Container;
import koala.constraints.Group;
import koala.constraints.Node;
import koala.constraints.Tags;
import koala.jdf.ComponentSpec;
import koala.jdf.ConstraintSpec;
import koala.jdf.JobDescription;
import koala.placement.PlacementPolicy;
import koala.placement.SiteConstraints;
import koala.scheduler.claiming.NodeClaim;

/**
 * A job's placement constraints in the constraints module's terms. Every node of job {@code ID}'s
 * component {@code N} carries {@code job=ID}, {@code component=N}, {@code owner=NAME} (when it has an
 * owner), {@code role=R} (a framework role) and the JDF's {@code tags}. A constraint's subject is its
 * component's tags; its target the tags written, with {@code job=ID} added when they name no job or
 * owner, so that "anti-affinity b site" is about this job's b nodes, not every job's.
 */
final class JobConstraints {
    private JobConstraints() {
    }

    static Map<Integer, Tags> tags(long id, String owner, JobDescription d) {
        Map<Integer, Tags> tags = new HashMap<>();
        for (ComponentSpec c : d.components()) {
            tags.put(c.index(), tags(id, owner, c));
        }
        return tags;
    }

    static Tags tags(long id, String owner, ComponentSpec c) {
        List<String> t = new ArrayList<>(c.tags());
        t.add("job=" + id);
        t.add("component=" + c.index());
        if (owner != null && !owner.isBlank()) {
            t.add("owner=" + owner);
        }
        if (c.role() != null) {
            t.add("role=" + c.role());
        }
        return Tags.of(t);
    }

    static List<Constraint> constraints(long id, String owner, JobDescription d) {
        List<Constraint> out = new ArrayList<>();
        for (ComponentSpec c : d.components()) {
            Tags subject = tags(id, owner, c);
            for (ConstraintSpec k : c.constraints()) {
                List<String> target = new ArrayList<>(k.target());
                if (!k.global()) {
                    target.add("job=" + id);
                }
                out.add(constraint(subject, Tags.of(target), k));
            }
        }
        return out;
    }

    private static Constraint constraint(Tags subject, Tags target, ConstraintSpec k) {
        Group group = Group.of(k.group());
        return switch (k.kind()) {
            case ConstraintSpec.AFFINITY -> new Constraint.Affinity(subject, target, group, k.hard());
            case ConstraintSpec.ANTI_AFFINITY -> new Constraint.AntiAffinity(subject, target, group, k.hard());
            default -> new Constraint.Cardinality(subject, target, group, k.min(), k.max(), k.hard());
        };
    }

    static boolean any(JobDescription d) {
        return d.components().stream().anyMatch(c -> !c.constraints().isEmpty());
    }

    // ---- framework instances: an allocation's roles ------------------------------------------

    /**
     * The tags of allocation {@code id}'s nodes of {@code role}: {@code job=ID}, {@code instance=ID},
     * {@code owner=NAME}, {@code role=ROLE}, {@code component=N} (the role's component in the JDF) and the
     * role's own tags, as its runner sent them.
     */
    static Tags roleTags(long id, String owner, String role, List<RolePlacement> roles) {
        RolePlacement r = roles.stream().filter(p -> p.role().equals(role)).findFirst().orElse(null);
        List<String> t = new ArrayList<>(r == null ? List.of() : r.tags());
        t.add("job=" + id);
        t.add("instance=" + id);
        if (owner != null && !owner.isBlank()) {
            t.add("owner=" + owner);
        }
        t.add("role=" + role);
        if (r != null) {
            t.add("component=" + r.component());
        }
        return Tags.of(t);
    }

    /** An allocation's constraints, each role their subject; a target that names no job, instance or owner is the instance's. */
    static List<Constraint> roleConstraints(long id, String owner, List<RolePlacement> roles) {
        List<Constraint> out = new ArrayList<>();
        for (RolePlacement r : roles) {
            Tags subject = roleTags(id, owner, r.role(), roles);
            for (String text : r.constraints()) {
                ConstraintSpec k = ConstraintSpec.parse(text); // checked when the allocation was opened
                List<String> target = new ArrayList<>(k.target());
                if (!k.global()) {
                    target.add("job=" + id);
                }
                out.add(constraint(subject, Tags.of(target), k));
            }
        }
        return out;
    }

    /** A live job's constraints: a plain job's components', an allocation's roles'. */
    static List<Constraint> constraintsOf(Job job) {
        if (job.allocation()) {
            if (job.roleConstraints() == null) { // read once: the roles never change
                job.roleConstraints(job.roles().stream().anyMatch(r -> !r.constraints().isEmpty())
                        ? roleConstraints(job.id(), job.record().owner(), job.roles()) : List.of());
            }
            return job.roleConstraints();
        }
        return any(job.description()) ? constraints(job.id(), job.record().owner(), job.description()) : List.of();
    }

    /** Whether the job brings placement constraints of its own (a JDF's components', an instance's roles'). */
    static boolean has(Job job) {
        return !constraintsOf(job).isEmpty();
    }

    /** A job's held nodes, each a container on its site with its tags. */
    static List<Container> containersOf(Job job) {
        return containersOf(job, t -> true, new HashMap<>());
    }

    /**
     * A job's held nodes whose tags {@code wanted} takes, each a container on its site; a component's tags
     * are built once, not once per node (an allocation's grows put many nodes in few components).
     */
    private static List<Container> containersOf(Job job, java.util.function.Predicate<Tags> wanted,
                                                Map<String, String> hosts) {
        List<Container> out = new ArrayList<>();
        JobDescription d = job.description();
        Map<Integer, Tags> byComponent = new HashMap<>();
        for (NodeClaim n : job.heldNodes()) {
            if (n.component() >= d.components().size()) {
                continue;
            }
            Tags t = byComponent.computeIfAbsent(n.component(), i -> componentTags(job, d.components().get(i)));
            if (wanted.test(t)) {
                out.add(new Container(n.id(), t, n.site()));
                if (n.host() != null) {
                    hosts.put(n.id(), n.host()); // where it runs, or the host its pilot is pinned to
                }
            }
        }
        return out;
    }

    private static Tags componentTags(Job job, ComponentSpec c) {
        return job.allocation()
                ? roleTags(job.id(), job.record().owner(), c.role() == null ? "worker" : c.role(), job.roles())
                : tags(job.id(), job.record().owner(), c);
    }

    /**
     * The held nodes of the live jobs of {@code all} (but job {@code except}) that carry the subject or the
     * target of one of {@code constraints}: a constraint counts only those ({@code koala.constraints.Rules}),
     * so the others are left out of the state a decision builds.
     */
    private static List<Container> bearingOn(List<Constraint> constraints, Iterable<Job> all, long except,
                                             Map<String, String> hosts) {
        java.util.function.Predicate<Tags> bears = t -> constraints.stream()
                .anyMatch(k -> t.carries(k.subject()) || t.carries(k.target()));
        List<Container> out = new ArrayList<>();
        for (Job o : all) {
            if (o.id() != except && !o.record().state().ended()) {
                out.addAll(containersOf(o, bears, hosts));
            }
        }
        return out;
    }

    /** The constraints of the live jobs of {@code constrained} (those with any) but job {@code except}. */
    private static List<Constraint> inForce(Iterable<Job> constrained, long except) {
        List<Constraint> out = new ArrayList<>();
        for (Job o : constrained) {
            if (o.id() != except && !o.record().state().ended()) {
                out.addAll(constraintsOf(o));
            }
        }
        return out;
    }

    private static List<Constraint> both(List<Constraint> a, List<Constraint> b) {
        List<Constraint> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /**
     * {@code policy} keeping {@code job}'s constraints and those of the other live jobs and instances in
     * force, whose held nodes count (the job's own too), each on its site; {@code policy} itself when none
     * of them has any.
     *
     * @param constrained the live jobs with constraints of their own ({@link JobBook#constrained}): only
     *                    they are asked for constraints, and {@code all} is not walked when it is empty
     *                    and {@code job} has none
     * @param all         every job in memory, whose held nodes may be the constraints' subjects or targets
     */
    static PlacementPolicy around(PlacementPolicy policy, Job job, Iterable<Job> constrained, Iterable<Job> all,
                                  java.util.function.Function<String, String> networkOf) {
        return around(policy, job, constrained, all, networkOf, null);
    }

    /**
     * As {@link #around(PlacementPolicy, Job, Iterable, Iterable, java.util.function.Function)}, choosing hosts
     * where a constraint is over the host or an admin's group ({@link SiteConstraints#onHosts}): {@code groupsOf}
     * gives a site's host its admin groups; null keeps every kind over sites.
     */
    static PlacementPolicy around(PlacementPolicy policy, Job job, Iterable<Job> constrained, Iterable<Job> all,
                                  java.util.function.Function<String, String> networkOf, GroupsOf groupsOf) {
        long id = job.id();
        String owner = job.record().owner();
        List<Constraint> own = any(job.description()) ? constraints(id, owner, job.description()) : List.of();
        List<Constraint> inForce = inForce(constrained, id);
        if (own.isEmpty() && inForce.isEmpty()) {
            return policy; // the common case: nothing walked, nothing built
        }
        Map<String, String> hosts = new HashMap<>();
        // the job's own held nodes count too: a part placed again (its claim timed out) is kept apart from
        // the parts that stay; a job placed from the queue holds none (a failed claim released them)
        SiteConstraints kept = new SiteConstraints(policy, networkOf, tags(id, owner, job.description()), own,
                bearingOn(both(own, inForce), all, -1, hosts), inForce);
        return groupsOf == null ? kept : kept.onHosts(new SiteConstraints.Hosts(hosts, groupsOf::of));
    }

    /** The groups an admin declared for a host of a site (its rack, upgrade domain...), by kind. */
    @FunctionalInterface
    interface GroupsOf {
        Map<Group, String> of(String site, String host);

        /** From the grid's declarations: site, then kind, then group, then its hosts. */
        static GroupsOf declared(Map<String, Map<String, Map<String, koala.grid.HostList>>> groups) {
            return (site, host) -> {
                Map<Group, String> out = new HashMap<>();
                groups.getOrDefault(site, Map.of()).forEach((kind, byGroup) -> byGroup.entrySet().stream()
                        .filter(g -> g.getValue().matches(host)).findFirst()
                        .ifPresent(g -> out.put(Group.of(kind), g.getKey())));
                return out;
            };
        }
    }

    /**
     * {@code policy} placing a grow of {@code role} nodes of {@code allocation} (as component 0 of a
     * flexible job) keeping the instance's constraints and those of the other live jobs and instances in
     * force, every held node counted on its site, the instance's own too; {@code policy} itself when
     * nothing has a constraint. {@code constrained} and {@code all} as for {@link #around}.
     */
    static PlacementPolicy aroundGrow(PlacementPolicy policy, Job allocation, String role, Iterable<Job> constrained,
                                      Iterable<Job> all, java.util.function.Function<String, String> networkOf,
                                      GroupsOf groupsOf) {
        List<Constraint> own = constraintsOf(allocation);
        List<Constraint> inForce = inForce(constrained, allocation.id());
        if (own.isEmpty() && inForce.isEmpty()) {
            return policy; // the common case: no job walked, nothing built
        }
        Map<String, String> hosts = new HashMap<>();
        SiteConstraints kept = new SiteConstraints(policy, networkOf, Map.of(0, roleTags(allocation.id(),
                allocation.record().owner(), role, allocation.roles())), own, bearingOn(both(own, inForce), all, -1,
                hosts), inForce);
        return groupsOf == null ? kept : kept.onHosts(new SiteConstraints.Hosts(hosts, groupsOf::of));
    }

    /**
     * The constraints that where the instance's nodes are now breaks (its own, and others' in force on
     * them), found by an audit ({@link Audit}): a node whose host is known (arrived, or pinned) on its
     * host, with its admin groups ({@code groupsOf}, null for none); one whose host is not yet, on its
     * site. Each in words, with where.
     */
    static List<String> brokenNow(Job allocation, Iterable<Job> all, java.util.function.Function<String, String> networkOf,
                                  GroupsOf groupsOf) {
        List<Constraint> own = constraintsOf(allocation);
        List<Constraint> others = new ArrayList<>();
        for (Job o : all) {
            if (!o.record().state().ended() && o.id() != allocation.id()) {
                others.addAll(constraintsOf(o));
            }
        }
        if (own.isEmpty() && others.isEmpty()) {
            return List.of(); // the common case: nothing built
        }
        List<Container> running = new ArrayList<>();
        Map<String, Node> nodes = new java.util.TreeMap<>();
        for (Job o : all) {
            if (!o.record().state().ended()) {
                Map<String, String> hosts = new HashMap<>();
                for (Container c : containersOf(o, t -> true, hosts)) {
                    String site = c.node();
                    String host = hosts.get(c.id());
                    String at = host == null ? site : host;
                    nodes.computeIfAbsent(at, n -> {
                        Map<Group, String> groups = new HashMap<>(host == null || groupsOf == null ? Map.of()
                                : groupsOf.of(site, host));
                        groups.put(Group.SITE, site);
                        groups.put(Group.NETWORK, networkOf.apply(site));
                        return new Node(n, 1_000_000, groups);
                    });
                    running.add(new Container(c.id(), c.tags(), at));
                }
            }
        }
        ClusterState state = new ClusterState(nodes.values());
        running.forEach(state::add);
        state.constrain("instance", own);
        state.constrain("others", others);
        Tags mine = Tags.of("instance=" + allocation.id());
        List<String> out = new ArrayList<>();
        for (Audit.Finding f : Audit.check(state)) {
            boolean about = own.contains(f.constraint()) || f.constraint().subject().carries(mine)
                    || f.constraint().target().carries(mine);
            if (about) {
                out.add(f.text());
            }
        }
        return out;
    }
}
