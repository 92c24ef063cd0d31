package koala.common.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.common.jdf.ComponentSpec;
import koala.common.jdf.ConstraintSpec;
import koala.common.jdf.JobDescription;

/**
 * What a framework JDF says of where one role's nodes go, as a runner sends it when it opens its
 * allocation: the role's tags and its placement constraints, each as the JDF writes it
 * ({@code "anti-affinity role=orchestrator site"}). The scheduler keeps them with the allocation and
 * places the role's grows with them; every node of the role carries the tags, and {@code job=ID},
 * {@code instance=ID}, {@code owner=NAME}, {@code role=ROLE} and {@code component=N} besides.
 *
 * @param role        master, orchestrator or worker
 * @param component   the index in the JDF of the role's (first) component, the {@code component=N} its nodes carry
 * @param tags        the role's {@code tags}
 * @param constraints the role's {@code constraints}, the role their subject
 */
public record RolePlacement(String role, int component, List<String> tags, List<String> constraints) {
    public RolePlacement {
        tags = tags == null ? List.of() : List.copyOf(tags);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
    }

    /**
     * One per role of a framework JDF, in the JDF's order: the tags of the role's first component (the
     * one its nodes are deployed from) and the constraints of every component of the role. Roles with
     * neither are sent too: their nodes carry {@code component=N}, which a target may name.
     */
    public static List<RolePlacement> of(JobDescription jdf) {
        Map<String, RolePlacement> roles = new LinkedHashMap<>();
        for (ComponentSpec c : jdf.components()) {
            if (c.role() == null) {
                continue;
            }
            RolePlacement known = roles.get(c.role());
            List<String> constraints = new ArrayList<>(known == null ? List.of() : known.constraints());
            c.constraints().stream().map(ConstraintSpec::text).forEach(constraints::add);
            roles.put(c.role(), new RolePlacement(c.role(), known == null ? c.index() : known.component(),
                    known == null ? c.tags() : known.tags(), constraints));
        }
        return List.copyOf(roles.values());
    }
}
