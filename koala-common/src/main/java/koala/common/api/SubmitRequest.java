package koala.common.api;

/** A job as the CLI submits it: the JDF text and the name of the file it came from. */
public record SubmitRequest(String file, String jdf) {
}
