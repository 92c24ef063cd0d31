package koala.constraints;

/** A container of a request and the node it goes to. */
public record Placement(String container, String node) {
}
