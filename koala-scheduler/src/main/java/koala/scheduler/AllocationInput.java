package koala.scheduler;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.RolePlacement;
import koala.common.failure.InvalidField;
import koala.jdf.ConstraintSpec;

/** What a runner sends about its allocation, checked: bad input is an {@link InvalidField} naming the field. */
final class AllocationInput {
    private static final Set<String> ROLES = Set.of("master", "orchestrator", "worker");

    private AllocationInput() {
    }

    /**
     * An allocation's roles as its runner sent them: known roles, each once; tags a JDF may give; each
     * constraint one the JDF's reader takes, whose target, when it names no other job, instance or owner,
     * some role of the instance carries.
     */
    static void checkRoles(List<RolePlacement> roles) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < roles.size(); i++) {
            checkRole(roles.get(i), "roles[" + i + "]", seen);
        }
        for (int i = 0; i < roles.size(); i++) {
            List<String> constraints = roles.get(i).constraints();
            for (int j = 0; j < constraints.size(); j++) {
                checkConstraint(constraints.get(j), "roles[" + i + "].constraints[" + j + "]", roles);
            }
        }
    }

    private static void checkRole(RolePlacement r, String at, Set<String> seen) {
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
            Optional<String> bad = ConstraintSpec.tagProblem(tag);
            if (bad.isPresent()) {
                throw new InvalidField(at + ".tags", bad.get());
            }
        }
    }

    private static void checkConstraint(String constraint, String field, List<RolePlacement> roles) {
        ConstraintSpec k;
        try {
            k = ConstraintSpec.parse(constraint);
        } catch (IllegalArgumentException e) {
            throw new InvalidField(field, "'" + constraint + "': " + e.getMessage());
        }
        if (!k.global() && roles.stream().noneMatch(r -> JobConstraints.roleTags(0, null, r.role(), roles)
                .carries(koala.constraints.Tags.of(k.target())))) {
            throw new InvalidField(field, "'" + constraint + "': no role of this instance carries "
                    + String.join(",", k.target()) + " (a role's tags, role=R and component=N); name another "
                    + "job's or instance's nodes with job=ID, instance=ID or owner=NAME");
        }
    }

    /** A grow: at least one node, and an absolute executable and output files. */
    static void checkGrow(GrowRequest request) {
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
}
