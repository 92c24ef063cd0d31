package koala.scheduler;

import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import koala.api.scheduler.TransitionView;
import koala.common.failure.NotFound;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;
import koala.scheduler.state.JobEvent;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.JobRecord;
import koala.scheduler.storage.Store;
import koala.scheduler.storage.StoredJob;

/**
 * The scheduler's jobs and everything about them that must survive a crash: each change is made in
 * memory and written to the store in the same call, where it is committed with the rest of the
 * loop's unit of work ({@link SchedulerLoop}) before anyone is told of it. Memory holds the live jobs and those that ended
 * lately ({@link #evict}); an older job is read back from the store when asked for, so the cost of a
 * round follows the jobs in flight, not every job ever submitted.
 */
final class JobBook {
    private final Map<Long, Job> jobs = new TreeMap<>();
    /**
     * The ids of the jobs in memory admitted with placement constraints of their own: a job's constraints
     * are fixed when it is admitted ({@link #add}, or {@link #restore} after a restart), so this is kept
     * there and never goes stale; an ended job is passed over when read and let go with it ({@link #evict}).
     */
    private final java.util.NavigableSet<Long> constrained = new java.util.TreeSet<>();
    private final Store store;
    private final InstantSource clock;

    JobBook(Store store, InstantSource clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A job in memory, or an ended one read back from the store (not kept in memory). */
    Optional<Job> find(long id) {
        Job known = jobs.get(id);
        return known != null ? Optional.of(known) : store.job(id).map(this::read);
    }

    /** A job in memory (every live one is), or none: never a read of the store. */
    Optional<Job> live(long id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** A stored job with its nodes and history, as the store has it; an allocation with its grows. */
    Job read(JobRecord record) {
        long id = record.id();
        return read(new StoredJob(record, store.components(id), store.roles(id), store.nodes(id), store.spans(id),
                store.history(id)));
    }

    /** A job as {@link Store#reload} read it back. */
    Job read(StoredJob stored) {
        Job job = new Job(stored.record(), Job.describedBy(stored.record()));
        if (!stored.components().isEmpty()) {
            job.describe(StoredAllocation.withComponents(job.description(), stored.components()));
        }
        if (job.allocation()) {
            stored.roles().ifPresent(json -> job.roles(StoredAllocation.roles(json)));
        }
        stored.nodes().forEach(job::put);
        stored.spans().forEach(job::put);
        stored.history().forEach(job::record);
        return job;
    }

    /**
     * Lets go of the jobs that ended before {@code before}; the store keeps them. Returns how many.
     */
    int evict(java.time.Instant before) {
        List<Long> old = jobs.values().stream().filter(j -> j.endedAt().map(t -> t.isBefore(before)).orElse(false))
                .map(Job::id).toList();
        old.forEach(jobs::remove);
        old.forEach(constrained::remove);
        return old.size();
    }

    Job get(long id) {
        return find(id).orElseThrow(() -> new NotFound("job " + id));
    }

    Collection<Job> all() {
        return jobs.values();
    }

    /**
     * The live jobs with placement constraints of their own, by id: the constraints in force on the grid.
     * Empty, and read at no cost, when no live job or instance has any (the common case).
     */
    List<Job> constrained() {
        if (constrained.isEmpty()) {
            return List.of();
        }
        List<Job> live = new java.util.ArrayList<>(constrained.size());
        for (long id : constrained) {
            Job job = jobs.get(id);
            if (job != null && !job.state().ended()) {
                live.add(job);
            }
        }
        return live;
    }

    /** A snapshot of the jobs, safe to iterate while jobs change. */
    List<Job> list() {
        return List.copyOf(jobs.values());
    }

    long nextId() {
        return store.nextJobId();
    }

    /** A new job, stored; an allocation with its roles' tags and constraints. */
    void add(Job job) {
        admit(job);
        store.saveJob(job.record(), clock.instant());
        if (!job.roles().isEmpty()) {
            store.saveRoles(job.id(), koala.common.json.Json.write(job.roles()));
        }
    }

    /** A job read back from the store. */
    void restore(Job job) {
        admit(job);
    }

    private void admit(Job job) {
        jobs.put(job.id(), job);
        if (JobConstraints.has(job)) {
            constrained.add(job.id());
        }
    }

    void update(Job job, JobRecord next) {
        job.update(next);
        store.saveJob(next, clock.instant());
    }

    /** An allocation grows by one component: appended to what is stored, the job not written again. */
    void append(Job job, koala.jdf.JobDescription next) {
        koala.jdf.ComponentSpec added = next.components().get(next.components().size() - 1);
        job.describe(next);
        store.appendComponent(job.id(), added.index(), koala.common.json.Json.write(added));
    }

    /** A node as it is now; its pilot's span follows it ({@link NodeSpan#follow}), stamped with the clock. */
    void save(Job job, NodeClaim node) {
        job.put(node);
        store.saveNode(node);
        NodeSpan.follow(job.span(node), node, clock.instant(), job.allocation() && job.state() == JobState.RUNNING)
                .ifPresent(span -> {
                    job.put(span);
                    store.saveSpan(span);
                });
    }

    /** The CPU time the launcher of {@code node} reported its command used. */
    void measured(Job job, NodeClaim node, double cpuSeconds) {
        NodeSpan span = job.span(node);
        if (span != null) {
            NodeSpan next = span.measured(cpuSeconds);
            job.put(next);
            store.saveSpan(next);
        }
    }

    void record(Job job, JobState from, JobState to, JobEvent event, String reason) {
        TransitionView t = new TransitionView(clock.instant(), from == null ? "" : from.name(), to.name(), event.name(),
                reason);
        job.record(t);
        store.recordTransition(job.id(), t);
    }

    /** A line of the job's history that leaves it in its state ({@code event} is a note). */
    void note(Job job, JobEvent event, String reason) {
        if (event.moves()) {
            throw new IllegalArgumentException(event + " moves a job; fire it, do not note it");
        }
        record(job, job.state(), job.state(), event, reason);
    }
}
