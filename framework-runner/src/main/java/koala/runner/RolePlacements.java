package koala.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.RolePlacement;
import koala.jdf.ComponentSpec;
import koala.jdf.ConstraintSpec;
import koala.jdf.JobDescription;

/** What a framework JDF says of where each role's nodes go, as the runner sends it when it opens its allocation. */
final class RolePlacements {
    private RolePlacements() {
    }

    /**
     * One per role of a framework JDF, in the JDF's order: the tags of the role's first component (the
     * one its nodes are deployed from) and the constraints of every component of the role. Roles with
     * neither are sent too: their nodes carry {@code component=N}, which a target may name.
     */
    static List<RolePlacement> of(JobDescription jdf) {
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
