package koala.constraints;

/**
 * A soft constraint a placement breaks, because no node with a free slot kept it (or, when the
 * placer checks a placement made without constraints, any constraint it breaks).
 *
 * @param group the value of the constraint's group kind where it is broken, e.g. the site
 * @param text  what a user reads: "site fs3 already holds 1 container tagged {A, master}"
 */
public record Violation(String container, Constraint constraint, String node, String group, String text) {
}
