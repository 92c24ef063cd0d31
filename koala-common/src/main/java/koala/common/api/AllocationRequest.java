package koala.common.api;

/**
 * A runner opens an allocation: a job of KOALA's whose nodes it grows and shrinks at will. Its
 * grows are placed over as few sites as possible, emptiest first, and granted in part when the
 * grid has fewer idle nodes than asked.
 *
 * @param owner     who holds it (a framework instance's name), shown in {@code koala jobs}
 * @param requestId the caller's name for this request: a retry opens no second allocation; may be null
 */
public record AllocationRequest(String owner, String requestId) {
    public AllocationRequest(String owner) {
        this(owner, null);
    }

    /** The same request, named {@code id} if it has no name yet. */
    public AllocationRequest named(String id) {
        return requestId != null ? this : new AllocationRequest(owner, id);
    }
}
