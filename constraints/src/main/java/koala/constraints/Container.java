package koala.constraints;

/** A running container (a KOALA node's entity: a master, an orchestrator, a worker...) with its tags. */
public record Container(String id, Tags tags, String node) {
}
