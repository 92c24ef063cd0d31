package koala.fluent;

/** Where part of an application runs: {@code slots} of its components on worker {@code workerId}. */
public record Assignment(String workerId, int slots) {
    public Assignment {
        if (workerId == null || workerId.isBlank() || slots < 1) {
            throw new IllegalArgumentException("an assignment names a worker and at least 1 slot");
        }
    }

    /** "w1 (2)", as listed in reasons. */
    @Override
    public String toString() {
        return workerId + " (" + slots + ")";
    }
}
