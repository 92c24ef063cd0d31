package koala.jdf;

/**
 * KOALA's job types, derived from a JDF: FIXED when every component names its cluster
 * ({@code resourceManagerContact}), NON_FIXED when none does, SEMI_FIXED when some do, FLEXIBLE for
 * {@code jobType = flexible} (one total size that KOALA may split), FRAMEWORK for
 * {@code jobType = framework}.
 */
public enum JobKind {
    FIXED, NON_FIXED, SEMI_FIXED, FLEXIBLE, FRAMEWORK
}
