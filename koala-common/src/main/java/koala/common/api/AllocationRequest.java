package koala.common.api;

/**
 * A runner opens an allocation: a job of KOALA's whose nodes it grows and shrinks at will. Its
 * grows are placed over as few sites as possible, emptiest first, and granted in part when the
 * grid has fewer idle nodes than asked.
 *
 * @param owner who holds it (a framework instance's name), shown in {@code koala jobs}
 */
public record AllocationRequest(String owner) {
}
