package koala.scheduler.storage;

import java.util.List;
import java.util.Optional;

/** What an allocation (a framework instance's job) keeps beside its job: its grows' components and its roles. */
public interface AllocationStore {
    /** An allocation's new component (one grow), as JSON: kept beside the job, never rewriting it. */
    void appendComponent(long job, int index, String component);

    /** An allocation's components added by its grows, in order, as JSON. */
    List<String> components(long job);

    /**
     * Keeps an allocation's roles' tags and placement constraints (JSON, as its runner sent them when it
     * opened it), beside the job, for as long as the job is kept.
     */
    void saveRoles(long job, String roles);

    /** An allocation's roles' tags and placement constraints, as JSON; empty when it was opened without any. */
    Optional<String> roles(long job);
}
