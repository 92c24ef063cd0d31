package koala.resourcemanager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import koala.api.site.CellJob;
import koala.api.site.HostInfo;
import koala.api.site.MemoryUse;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.api.site.QueueInstance;
import koala.common.failure.InvalidField;

/**
 * A resource manager in memory, for unit tests of what drives one: jobs get ids 1, 2, ...; the
 * test moves them ({@link #start}, {@link #end}), takes the manager away ({@link #goAway}, as a
 * qmaster that stops answering) and brings it back, and reads what was asked of it
 * ({@link #submitted}). Jobs that end while their connection is open are reported by
 * {@link #awaitEnded}; jobs of an earlier connection only through {@link #state} and
 * {@link #accounting}, as with a real manager.
 */
public final class FakeResourceManager implements ResourceManager {
    private record Job(PilotSpec spec, int connection, PilotState state, JobEnd end) {
        Job with(PilotState next, JobEnd how) {
            return new Job(spec, connection, next, how);
        }
    }

    private final Map<String, Job> jobs = new LinkedHashMap<>();
    private final Map<String, JobEnd> accounts = new HashMap<>();
    private final Map<String, MemoryUse> memories = new HashMap<>();
    private final LinkedBlockingQueue<EndedJob> ended = new LinkedBlockingQueue<>();
    private final List<HostInfo> hosts;
    private int nextId = 1;
    private volatile boolean connected;
    private volatile int connection;
    private volatile String unreachable;
    private String refusal;

    /** A cluster of {@code hosts} hosts named {@code n1, n2, ...}, one slot each. */
    public FakeResourceManager(int hosts) {
        List<HostInfo> list = new ArrayList<>();
        for (int i = 1; i <= hosts; i++) {
            list.add(new HostInfo("n" + i, "lx-amd64", 1, 0.0, "1.0G", "0.1G"));
        }
        this.hosts = List.copyOf(list);
    }

    @Override
    public String name() {
        return "Fake";
    }

    @Override
    public String system() {
        return connection == 0 ? "" : "Fake 1.0";
    }

    @Override
    public boolean connected() {
        return connected;
    }

    @Override
    public int connection() {
        return connection;
    }

    @Override
    public synchronized void connect() throws ManagerFailure {
        if (unreachable != null) {
            throw new ManagerLost(unreachable, null);
        }
        if (!connected) {
            connection++;
            connected = true;
        }
    }

    @Override
    public void disconnect() {
        connected = false;
    }

    @Override
    public void validate(PilotSpec spec) {
        if (spec.name() == null || spec.name().isBlank()) {
            throw new InvalidField("name", "missing");
        }
    }

    @Override
    public synchronized String submit(PilotSpec spec) throws ManagerFailure {
        requireConnected();
        if (refusal != null) {
            throw new ManagerFailure(refusal);
        }
        String id = String.valueOf(nextId++);
        jobs.put(id, new Job(spec, connection, PilotState.QUEUED, null));
        return id;
    }

    @Override
    public synchronized void cancel(String id) throws ManagerFailure {
        requireConnected();
        Job job = known(id);
        if (!job.state().isFinal()) {
            end(id, new JobEnd.Deleted("deleted in Fake before it finished"));
        }
    }

    @Override
    public synchronized PilotState state(String id) throws ManagerFailure {
        requireConnected();
        return known(id).state();
    }

    @Override
    public Optional<EndedJob> awaitEnded(Duration timeout) throws ManagerFailure {
        requireConnected();
        try {
            return Optional.ofNullable(ended.poll(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    @Override
    public synchronized Optional<JobEnd> accounting(String id) {
        return Optional.ofNullable(accounts.get(id));
    }

    @Override
    public synchronized Optional<EndedJob> accounted(String id) {
        return accounting(id).map(end -> new EndedJob(id, end, memories.get(id)));
    }

    @Override
    public synchronized ClusterLoad load(Predicate<CellJob> ours) {
        probe();
        List<QueueInstance> queues = new ArrayList<>();
        List<CellJob> cellJobs = new ArrayList<>();
        for (HostInfo host : hosts) {
            queues.add(new QueueInstance("all.q@" + host.name(), host.name(), 1, 0, 0, true, ""));
        }
        jobs.forEach((id, job) -> {
            if (!job.state().isFinal()) {
                CellJob cellJob = new CellJob(id, job.spec().name(), "koala", job.state() == PilotState.RUNNING ? "r"
                        : "qw", 1, null, null, false);
                cellJobs.add(ours.test(cellJob) ? new CellJob(id, cellJob.name(), "koala", cellJob.state(), 1, null,
                        null, true) : cellJob);
            }
        });
        return new ClusterLoad(hosts, queues, cellJobs);
    }

    @Override
    public void probe() {
        String reason = unreachable;
        if (reason != null) {
            throw new ManagerUnreachable(reason);
        }
    }

    @Override
    public String probeName() {
        return "fake probe";
    }

    @Override
    public Optional<Call> oldestCall() {
        return Optional.empty();
    }

    // ---- what the test does to the cluster ----------------------------------------------------

    /** The job starts running. */
    public synchronized void start(String id) {
        jobs.computeIfPresent(id, (k, job) -> job.with(PilotState.RUNNING, null));
    }

    /**
     * The job ends: reported by {@link #awaitEnded} if its connection is the open one, and kept in
     * accounting; the manager then forgets it, as SGE does once a job is gone.
     */
    public synchronized void end(String id, JobEnd how) {
        end(id, how, null);
    }

    /** The job ends as {@link #end(String, JobEnd)}, and the manager tells what it claimed and used of memory. */
    public synchronized void end(String id, JobEnd how, MemoryUse memory) {
        Job job = jobs.remove(id);
        accounts.put(id, how);
        if (memory != null) {
            memories.put(id, memory);
        }
        if (job != null && connected && job.connection() == connection) {
            ended.add(new EndedJob(id, how, memory));
        }
    }

    /** The manager stops answering: probes and looks fail with {@code reason}, the connection is lost. */
    public void goAway(String reason) {
        unreachable = reason;
        connected = false;
    }

    /** The manager answers again. */
    public void comeBack() {
        unreachable = null;
    }

    /** The manager refuses every submission from now on, with {@code reason}. */
    public synchronized void refuseSubmissions(String reason) {
        refusal = reason;
    }

    /** What was submitted, by id. */
    public synchronized Map<String, PilotSpec> submitted() {
        Map<String, PilotSpec> all = new LinkedHashMap<>();
        jobs.forEach((id, job) -> all.put(id, job.spec()));
        return all;
    }

    private void requireConnected() throws ManagerLost {
        if (!connected) {
            throw new ManagerLost(unreachable != null ? unreachable : "not connected", null);
        }
    }

    private Job known(String id) throws UnknownJob {
        Job job = jobs.get(id);
        if (job == null) {
            throw new UnknownJob("no job " + id, null);
        }
        return job;
    }
}
