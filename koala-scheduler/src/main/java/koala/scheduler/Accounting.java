package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.TransitionView;
import koala.api.scheduler.UsageRecord;
import koala.common.failure.Forbidden;
import koala.common.json.Json;
import koala.fjm.FrameworkRecord;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.jdf.NodeResources;
import koala.scheduler.accounting.NodeCharge;
import koala.scheduler.accounting.ResourceSeconds;
import koala.scheduler.accounting.UsageCounts;
import koala.scheduler.accounting.UsageFigures;
import koala.scheduler.accounting.UsageSink;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.accounting.WorkerMeter;
import koala.scheduler.accounting.WorkerTally;
import koala.scheduler.api.Caller;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.state.JobEvent;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Accounting on the scheduler's loop: a usage record is made when a job or an instance ends, kept
 * in the store, and handed to a {@link UsageSink} (the accounting file's writer, off the loop),
 * which acknowledges it once the file has it ({@link #written}).
 *
 * <p>Exactly one record per job, across crashes: before a job's end is saved, the store marks it
 * as ending ({@link #ending}); once its nodes are given back the record replaces the mark
 * ({@link #ended}); the writer's acknowledgement marks it written. A scheduler started again
 * ({@link #recover}) makes the records of jobs marked ending that did end, and replays every
 * record not marked written: the writer appends each only if the file has no record of its id
 * (the first scheduler may have written it and died before the acknowledgement). A job that has
 * not ended (killed between its mark and its end) gets its record when it does end.
 *
 * <p>Runners' worker reports are summed here too ({@link WorkerMeter}), and the sums kept in the
 * store every minute, so that a restart loses at most a minute of an instance's figures.
 *
 * <p>Each node is charged its cores, memory and GPUs for the seconds it is granted ({@link NodeCharge}:
 * what its component asked for; a framework instance's node, what its role asks for in the instance's
 * framework JDF; a node that asked for nothing, a whole node of its site). A record's figures are
 * added to its owner's totals in the store in the same unit of work as the record itself, so each
 * record adds once across crashes, and the counts ({@link UsageCounts}, the metrics) go on from the
 * totals after a restart. Each round the counts are also told what the running instances have been
 * granted so far.
 */
final class Accounting {
    private static final Logger LOG = LogManager.getLogger(Accounting.class);
    /** How often the instances' worker tallies are kept in the store. */
    static final Duration KEEP_TALLIES_EVERY = Duration.ofMinutes(1);

    private final JobBook book;
    private final Store store;
    private final Frameworks frameworks;
    private final Function<String, Integer> cores;
    private final InstantSource clock;
    private final WorkerMeter meter;
    /** What each registered instance's roles ask for, from its framework JDF, by instance. */
    private final Map<Long, Map<String, NodeResources>> roleResources = new HashMap<>();
    private UsageSink sink = UsageSink.NOWHERE;
    private UsageCounts counts = UsageCounts.NONE;
    private Instant nextKeep = Instant.EPOCH;

    /** @param cores the cores of a node of a site ({@code site.S.node.cores}); null when not known */
    Accounting(JobBook book, Store store, Frameworks frameworks, Function<String, Integer> cores, InstantSource clock) {
        this.book = book;
        this.store = store;
        this.frameworks = frameworks;
        this.cores = cores;
        this.clock = clock;
        this.meter = new WorkerMeter(id -> store.workerTally(id).orElse(WorkerTally.ZERO));
    }

    /** Where records go from now on. */
    void sink(UsageSink sink) {
        this.sink = sink;
    }

    /** Who counts what records charge from now on: told at once what the store kept from before. */
    void counts(UsageCounts counts) {
        this.counts = counts;
        store.usageTotals().forEach(counts::charged);
    }

    /**
     * Who may read whose records: a user their own (also when an admin acts for them), an admin
     * anyone's ({@code user} null: everyone's). The owner to filter on, null for any.
     */
    static String readable(Caller caller, String user) {
        if (caller.admin()) {
            return user;
        }
        if (user == null || user.equals(caller.user())) {
            return caller.user();
        }
        throw new Forbidden(caller.user() + " may not read " + user + "'s usage records: a user reads their own, an "
                + "admin anyone's", "user");
    }

    /** The job is about to end: marked in the store before its end is saved. */
    void ending(Job job) {
        keep(job, () -> store.saveUsageRecord(job.id(), null));
    }

    /** The job has ended and given its nodes back: its record is made, kept and handed to the sink. */
    void ended(Job job) {
        keep(job, () -> {
            UsageRecord record = record(job);
            save(record);
            meter.forget(job.id());
            roleResources.remove(job.id());
            sink.append(record);
        });
    }

    /** The accounting file has job {@code id}'s record. */
    void written(long id) {
        store.usageRecordWritten(id, clock.instant());
    }

    /** A runner's report on its workers: the workers the scheduler holds for the instance, as reported. */
    void report(Job allocation, ShareReport report) {
        List<WorkerMeter.Sample> samples = new ArrayList<>();
        for (ShareReport.WorkerActivity w : report.workers()) {
            NodeClaim node = allocation.node(w.node());
            if (node != null && (node.state() == NodeState.ARRIVED || node.state() == NodeState.RUNNING)
                    && "worker".equals(role(allocation, node.component()))) {
                // a launcher samples its CPU as a share of the cores it was told: those its node is charged
                samples.add(new WorkerMeter.Sample(w.node(), w.busy(), w.cpuPercent(),
                        charge(allocation, node.component(), node.site()).cores()));
            }
        }
        meter.report(allocation.id(), samples, clock.instant());
    }

    /**
     * A made record is kept with what it adds to its owner's totals, in the same unit of work: each
     * record adds once, also across a crash. The counts hear of it once the unit is committed.
     */
    private void save(UsageRecord record) {
        UsageTotals.Key owner = UsageTotals.keyOf(record);
        UsageTotals added = UsageTotals.of(record);
        store.inTransaction(() -> { // the loop's unit, when called in one; a unit of their own otherwise
            store.saveUsageRecord(record.id(), Json.write(record));
            store.addUsage(owner, added);
        });
        store.afterCommit(() -> counts.charged(owner, added));
    }

    /**
     * Each round: what each running instance has been granted so far goes to the counts; once a minute,
     * the worker tallies that changed go to the store.
     */
    void tick() {
        Instant now = clock.instant();
        if (counts != UsageCounts.NONE) {
            counts.running(running(now));
        }
        if (now.isBefore(nextKeep)) {
            return;
        }
        nextKeep = now.plus(KEEP_TALLIES_EVERY);
        meter.unsaved().forEach(store::saveWorkerTally);
    }

    /**
     * After a restart: makes the records of the jobs marked ending that ended, and replays every
     * record the file may not have.
     */
    void recover() {
        List<UsageRecord> owed = new ArrayList<>();
        for (Map.Entry<Long, String> kept : store.unwrittenUsageRecords().entrySet()) {
            if (kept.getValue() != null) {
                parse(kept.getKey(), kept.getValue()).ifPresent(owed::add);
                continue;
            }
            Optional<Job> job = book.find(kept.getKey()).filter(j -> j.state().ended());
            if (job.isPresent()) { // it ended before the crash; its record was not made
                UsageRecord record = record(job.get());
                save(record);
                owed.add(record);
            }
        }
        if (!owed.isEmpty()) {
            LOG.info("accounting: {} usage records from before the restart go to the accounting file unless it has "
                    + "them", owed.size());
            sink.replay(owed);
        }
    }

    /** Each running instance's figures so far, by id. */
    private Map<Long, UsageTotals> running(Instant now) {
        Map<Long, UsageTotals> out = new TreeMap<>();
        for (Job job : book.list()) {
            if (job.allocation() && job.state() == JobState.RUNNING) {
                List<NodeSpan> spans = job.spans();
                ResourceSeconds r = ResourceSeconds.of(spans, s -> charge(job, s), now);
                out.put(job.id(), new UsageTotals(0, UsageFigures.nodeSeconds(spans, now),
                        r.coreSeconds() == null ? 0 : r.coreSeconds(), r.memoryGbSeconds(), r.gpuSeconds()));
            }
        }
        return out;
    }

    /** What the node of {@code span} is charged ({@link NodeCharge}). */
    private NodeCharge charge(Job job, NodeSpan span) {
        return charge(job, span.component(), span.site());
    }

    private NodeCharge charge(Job job, int component, String site) {
        return NodeCharge.of(asked(job, component), cores.apply(site));
    }

    /**
     * What a node of {@code job}'s component asked for. A framework instance's nodes are its grows',
     * each a component the scheduler added; one that says nothing of resources asks what its role's
     * (first) component in the instance's framework JDF does (a worker: the JDF's worker component).
     */
    private NodeResources asked(Job job, int component) {
        List<koala.jdf.ComponentSpec> components = job.description().components();
        NodeResources own = component < components.size() ? components.get(component).resources() : NodeResources.DEFAULT;
        if (!job.allocation() || !own.equals(NodeResources.DEFAULT)) {
            return own;
        }
        return roleResources(job.id()).getOrDefault(role(job, component), NodeResources.DEFAULT);
    }

    /** The instance's roles' resources, read from its framework JDF once it is registered; none before. */
    private Map<String, NodeResources> roleResources(long id) {
        Map<String, NodeResources> known = roleResources.get(id);
        if (known != null) {
            return known;
        }
        Optional<FrameworkRecord> framework = frameworks.find(id);
        if (framework.isEmpty()) {
            return Map.of(); // not registered (yet): asked again next time
        }
        Map<String, NodeResources> roles = rolesIn(framework.get());
        roleResources.put(id, roles);
        return roles;
    }

    /** Each role's first component's resources in a framework JDF; none when its text does not parse. */
    static Map<String, NodeResources> rolesIn(FrameworkRecord r) {
        Map<String, NodeResources> roles = new HashMap<>();
        try {
            JobDescription jdf = JdfParser.parse(r.jdfFile() == null ? "-" : r.jdfFile(), r.jdf() == null ? "" : r.jdf(),
                    ClusterCatalog.NONE);
            jdf.components().stream().filter(c -> c.role() != null)
                    .forEach(c -> roles.putIfAbsent(c.role(), c.resources()));
        } catch (RuntimeException e) {
            LOG.debug("accounting: the framework JDF of instance {} does not parse; its nodes count as asking for "
                    + "nothing: {}", r.id(), e.getMessage());
        }
        return roles;
    }

    private static Optional<UsageRecord> parse(long id, String json) {
        try {
            return Optional.of(Json.mapper().readValue(json, UsageRecord.class));
        } catch (java.io.IOException e) {
            LOG.error("accounting: the kept usage record of job {} is unreadable and is not written: {}", id,
                    e.getMessage());
            return Optional.empty();
        }
    }

    private void keep(Job job, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            // the job's own course comes first; its record is owed, and a restart makes it if it was marked
            LOG.error("accounting: the usage record of job {} could not be kept: {}", job.id(), e.toString(), e);
        }
    }

    /** The usage record of an ended job, from its nodes' spans, its history and its runner's reports. */
    UsageRecord record(Job job) {
        List<TransitionView> history = job.history();
        Instant end = job.endedAt().orElse(clock.instant());
        Instant started = history.stream().filter(t -> t.to().equals(JobState.RUNNING.name())).map(TransitionView::at)
                .findFirst().orElse(null);
        String reason = history.isEmpty() ? null : history.get(history.size() - 1).reason();
        List<NodeSpan> spans = job.spans();
        ResourceSeconds charged = ResourceSeconds.of(spans, s -> charge(job, s), end);
        Double coreSeconds = charged.coreSeconds();
        double nodeSeconds = UsageFigures.nodeSeconds(spans, end);
        Double elapsed = started == null ? null : UsageFigures.seconds(Duration.between(started, end).toMillis() / 1000.0);
        Usage usage = job.allocation() ? instanceUsage(job, spans, end)
                : jobUsage(spans, nodeSeconds, coreSeconds, end);
        Optional<FrameworkRecord> framework = job.allocation() ? frameworks.find(job.id()) : Optional.empty();
        return new UsageRecord(job.id(), job.allocation() ? UsageRecord.INSTANCE : UsageRecord.JOB,
                framework.map(FrameworkRecord::name).orElse(job.record().name()), job.record().owner(),
                framework.map(FrameworkRecord::policy).orElse(job.allocation() ? null : job.record().policy()),
                job.state().name(), exitStatus(job), reason, job.record().submittedAt(), started, end, elapsed,
                UsageFigures.sites(spans), UsageFigures.nodes(spans), UsageFigures.peak(spans, end), nodeSeconds,
                usage.busy(), usage.reported(), usage.busyEfficiency(), coreSeconds, charged.memoryGbSeconds(),
                charged.gpuSeconds(), usage.cpu(), usage.cpuEfficiency(),
                usage.cpu() == null ? null : job.allocation() ? UsageRecord.FROM_RUNNER : UsageRecord.FROM_LAUNCHERS,
                job.allocation() ? UsageFigures.roles(spans, c -> role(job, c), end) : null,
                job.allocation() ? job.description().components().size() : 0,
                job.allocation() ? job.description().components().stream().mapToInt(c -> c.count()).sum() : 0,
                count(history, JobEvent.SHRANK, JobEvent.TAKEN_BACK, JobEvent.ENDED_AFTER_GRACE),
                (int) spans.stream().filter(s -> NodeSpan.GIVEN_BACK.equals(s.endedAs())).count(),
                count(history, JobEvent.GROW_REFUSED));
    }

    /** The busy, CPU and coverage figures of a record. */
    private record Usage(Double busy, Double reported, Double busyEfficiency, Double cpu, Double cpuEfficiency) {
    }

    /** A job's: its commands' run time, and the CPU time its launchers reported. */
    private static Usage jobUsage(List<NodeSpan> spans, double nodeSeconds, Double coreSeconds, Instant end) {
        double busy = UsageFigures.busySeconds(spans, end);
        Double cpu = UsageFigures.cpuSeconds(spans);
        return new Usage(busy, null, UsageFigures.share(busy, nodeSeconds), cpu, UsageFigures.share(cpu, coreSeconds));
    }

    /** An instance's: its workers' as its runner reported them, over its workers' node-seconds. */
    private Usage instanceUsage(Job job, List<NodeSpan> spans, Instant end) {
        List<NodeSpan> workers = spans.stream().filter(s -> "worker".equals(role(job, s.component()))).toList();
        double workerSeconds = UsageFigures.nodeSeconds(workers, end);
        WorkerTally tally = meter.tally(job.id());
        boolean unreported = workerSeconds > 0 && tally.reportedSeconds() == 0;
        Double busy = unreported ? null : UsageFigures.seconds(tally.busySeconds());
        Double cpu = unreported || tally.cpuSeconds() == null ? null : UsageFigures.seconds(tally.cpuSeconds());
        return new Usage(busy, UsageFigures.seconds(tally.reportedSeconds()), UsageFigures.share(busy, workerSeconds),
                cpu, UsageFigures.share(cpu, ResourceSeconds.of(workers, s -> charge(job, s), end).coreSeconds()));
    }

    /**
     * A job's exit status: 0 when it finished, else the first status other than 0 its nodes' commands
     * ended with, in node order; null when none did (cancelled, a node lost, never placed) and for an
     * instance.
     */
    private static Integer exitStatus(Job job) {
        if (job.allocation()) {
            return null;
        }
        if (job.state() == JobState.FINISHED) {
            return 0;
        }
        if (job.state() == JobState.CANCELLED) {
            return null;
        }
        return job.nodes().stream().filter(n -> n.state() == NodeState.EXITED && n.exitStatus() != null
                && n.exitStatus() != 0).map(NodeClaim::exitStatus).findFirst().orElse(null);
    }

    /** A component's role; a grow that named none is a worker's. */
    private static String role(Job job, int component) {
        List<koala.jdf.ComponentSpec> components = job.description().components();
        String role = component < components.size() ? components.get(component).role() : null;
        return role == null ? "worker" : role;
    }

    private static int count(List<TransitionView> history, JobEvent... events) {
        List<String> wanted = java.util.Arrays.stream(events).map(JobEvent::name).toList();
        return (int) history.stream().filter(t -> wanted.contains(t.event())).count();
    }
}
