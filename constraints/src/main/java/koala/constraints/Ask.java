package koala.constraints;

/** One container a request asks to place, with the tags it will carry; it takes one slot. */
public record Ask(String id, Tags tags) {
}
