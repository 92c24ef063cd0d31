package koala.scheduler;

import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import koala.common.api.TransitionView;
import koala.common.failure.NotFound;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.JobRecord;
import koala.scheduler.storage.Store;

/**
 * The scheduler's jobs and everything about them that must survive a crash: each change is made in
 * memory and written to the store in the same call.
 */
final class JobBook {
    private final Map<Long, Job> jobs = new TreeMap<>();
    private final Store store;
    private final InstantSource clock;

    JobBook(Store store, InstantSource clock) {
        this.store = store;
        this.clock = clock;
    }

    Optional<Job> find(long id) {
        return Optional.ofNullable(jobs.get(id));
    }

    Job get(long id) {
        return find(id).orElseThrow(() -> new NotFound("job " + id));
    }

    Collection<Job> all() {
        return jobs.values();
    }

    /** A snapshot of the jobs, safe to iterate while jobs change. */
    List<Job> list() {
        return List.copyOf(jobs.values());
    }

    long nextId() {
        return store.nextJobId();
    }

    /** A new job, stored. */
    void add(Job job) {
        jobs.put(job.id(), job);
        store.saveJob(job.record());
    }

    /** A job read back from the store. */
    void restore(Job job) {
        jobs.put(job.id(), job);
    }

    void update(Job job, JobRecord next) {
        job.update(next);
        store.saveJob(next);
    }

    void save(Job job, NodeClaim node) {
        job.put(node);
        store.saveNode(node);
    }

    void record(Job job, JobState from, JobState to, String event, String reason) {
        TransitionView t = new TransitionView(clock.instant(), from == null ? "" : from.name(), to.name(), event, reason);
        job.record(t);
        store.recordTransition(job.id(), t);
    }
}
