package koala.api.scheduler;

import java.util.List;

/**
 * A runner opens an allocation: a job of KOALA's whose nodes it grows and shrinks at will. Its
 * grows are placed over as few sites as possible, emptiest first, and granted in part when the
 * grid has fewer idle nodes than asked; with its roles' placement constraints kept.
 *
 * @param owner     who holds it (a framework instance's name), shown in {@code koala jobs}
 * @param requestId the caller's name for this request: a retry opens no second allocation; may be null
 * @param roles     the roles' tags and placement constraints, from the framework JDF; kept with the
 *                  allocation for as long as it lives; empty (or absent) for none
 */
public record AllocationRequest(String owner, String requestId, List<RolePlacement> roles) {
    public AllocationRequest {
        roles = roles == null ? List.of() : List.copyOf(roles);
    }

    public AllocationRequest(String owner) {
        this(owner, null, List.of());
    }

    public AllocationRequest(String owner, String requestId) {
        this(owner, requestId, List.of());
    }

    /** The same request, named {@code id} if it has no name yet. */
    public AllocationRequest named(String id) {
        return requestId != null ? this : new AllocationRequest(owner, id, roles);
    }
}
