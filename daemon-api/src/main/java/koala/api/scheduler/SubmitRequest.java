package koala.api.scheduler;

/**
 * A job as the CLI submits it: the JDF text and the name of the file it came from.
 *
 * @param requestId the caller's name for this submit, so that a retry after a lost answer finds the
 *                  job the first try made instead of making a second; null for none
 */
public record SubmitRequest(String file, String jdf, String requestId) {
    public SubmitRequest(String file, String jdf) {
        this(file, jdf, null);
    }

    /** The same request, named {@code id} if it has no name yet. */
    public SubmitRequest named(String id) {
        return requestId != null ? this : new SubmitRequest(file, jdf, id);
    }
}
