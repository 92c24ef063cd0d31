package koala.api.scheduler;

import koala.common.failure.Failure;

/**
 * The fencing of framework runners. Each start of a runner for an instance has a generation, kept by
 * the scheduler in its store: 1 for the runner that registered the instance, one more for every runner
 * the scheduler starts in the place of another. A runner sends its generation with every call about
 * its instance ({@link #HEADER}); the scheduler refuses a call from an older one with a {@code Gone}
 * naming {@link #FIELD}, on which that runner stops acting: it exits without ending the instance or
 * giving its nodes back, since they are its successor's.
 */
public final class RunnerGeneration {
    /** The header a runner's calls carry its generation in. */
    public static final String HEADER = "X-Koala-Runner-Generation";
    /** The field a refusal of a replaced runner's call names. */
    public static final String FIELD = "runnerGeneration";
    /** The generation of the runner that registers an instance. */
    public static final long FIRST = 1;

    private RunnerGeneration() {
    }

    /** Whether {@code failure} says that the runner that called was replaced by another. */
    public static boolean replaced(Failure failure) {
        return failure.kind() == Failure.Kind.GONE && FIELD.equals(failure.field());
    }
}
