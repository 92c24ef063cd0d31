package koala.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import koala.api.scheduler.RolePlacement;
import koala.common.json.Json;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;

/** An allocation as the store keeps it: its description, its roles and its grows' components, as JSON. */
final class StoredAllocation {
    private StoredAllocation() {
    }

    /** An allocation's roles as stored ({@link koala.scheduler.storage.Store#saveRoles}). */
    static List<RolePlacement> roles(String json) {
        try {
            return List.of(Json.mapper().readValue(json, RolePlacement[].class));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable stored roles of an allocation: " + e.getMessage(), e);
        }
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
