package koala.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import koala.common.jdf.ComponentSpec;
import koala.common.jdf.ConstraintSpec;
import koala.common.jdf.JobDescription;
import koala.constraints.Constraint;
import koala.constraints.Container;
import koala.constraints.Group;
import koala.constraints.Tags;
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

    /**
     * {@code policy} keeping {@code job}'s constraints and those of {@code others} (the live jobs), whose
     * held nodes count, each on its site; {@code policy} itself when none of them has any.
     */
    static PlacementPolicy around(PlacementPolicy policy, Job job, Iterable<Job> others,
                                  java.util.function.Function<String, String> networkOf) {
        List<Constraint> inForce = new ArrayList<>();
        for (Job o : others) {
            if (o.id() != job.id() && !o.record().state().ended() && any(o.description())) {
                inForce.addAll(constraints(o.id(), o.record().owner(), o.description()));
            }
        }
        if (!any(job.description()) && inForce.isEmpty()) {
            return policy; // the common case: one pass over the jobs, nothing built
        }
        List<Container> running = new ArrayList<>();
        for (Job o : others) {
            if (o.id() == job.id() || o.record().state().ended()) {
                continue;
            }
            JobDescription d = o.description();
            for (NodeClaim n : o.heldNodes()) {
                if (n.component() < d.components().size()) {
                    running.add(new Container(n.id(), tags(o.id(), o.record().owner(), d.components().get(n.component())),
                            n.site()));
                }
            }
        }
        long id = job.id();
        String owner = job.record().owner();
        return new SiteConstraints(policy, networkOf, tags(id, owner, job.description()),
                constraints(id, owner, job.description()), running, inForce);
    }
}
