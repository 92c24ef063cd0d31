package koala.resourcemanager;

/** A job of the current connection that ended. */
public record EndedJob(String id, JobEnd end) {
}
