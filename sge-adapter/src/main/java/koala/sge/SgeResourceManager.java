package koala.sge;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import koala.api.site.CellJob;
import koala.api.site.MemoryUse;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.grid.SiteConfig;
import koala.resourcemanager.ClusterLoad;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;
import koala.resourcemanager.ManagerFailure;
import koala.resourcemanager.ManagerLost;
import koala.resourcemanager.ResourceManager;
import koala.resourcemanager.UnknownJob;
import org.ggf.drmaa.DrmCommunicationException;
import org.ggf.drmaa.DrmaaException;
import org.ggf.drmaa.InvalidJobException;
import org.ggf.drmaa.JobInfo;

/**
 * An SGE cell as a {@link ResourceManager}: pilots go in and out through the cell's one DRMAA
 * session ({@link DrmaaCell}), the cell's state comes from {@code qstat}/{@code qhost}
 * ({@link SgeCommands}), and jobs DRMAA no longer knows are looked up with {@code qacct}. DRMAA's
 * exceptions become the seam's: a lost qmaster {@link ManagerLost}, an unknown job
 * {@link UnknownJob}, any other refusal {@link ManagerFailure}.
 */
public final class SgeResourceManager implements ResourceManager {
    private final SgeCommands commands;
    private final SgeCommands probe;
    private final DrmaaCell drmaa;
    private final String agentUser;
    /** What each pilot of this agent claimed of memory (MiB), by job id, until it ends. */
    private final Map<String, Long> claims = new ConcurrentHashMap<>();

    /**
     * @param commands     the cell's commands, with the time-out of a look at the cell
     * @param probeTimeout how long the health probe may take before it counts as not answering
     * @param agentUser    the account the agent runs as: the probe asks for its jobs only, which is quick
     */
    SgeResourceManager(SgeCommands commands, Duration probeTimeout, DrmaaCell drmaa, String agentUser) {
        this.commands = commands;
        this.probe = commands.withTimeout(probeTimeout);
        this.drmaa = drmaa;
        this.agentUser = agentUser;
    }

    /** The cell of {@code site}, through libdrmaa, which must be loadable (a missing one fails here). */
    public static SgeResourceManager of(SiteConfig site, Duration commandTimeout, Duration probeTimeout,
                                        InstantSource clock) {
        return new SgeResourceManager(new SgeCommands(site.cell(), commandTimeout), probeTimeout,
                DrmaaCell.load(clock), site.agentUser());
    }

    @Override
    public String name() {
        return "SGE";
    }

    @Override
    public String system() {
        return drmaa.drmSystem();
    }

    @Override
    public boolean connected() {
        return drmaa.open();
    }

    @Override
    public int connection() {
        return drmaa.generation();
    }

    @Override
    public void connect() throws ManagerFailure {
        call(() -> {
            drmaa.openSession();
            return null;
        });
    }

    @Override
    public void disconnect() {
        drmaa.closeSession();
    }

    @Override
    public void validate(PilotSpec spec) {
        PilotSpecs.validate(spec);
    }

    /** Submits {@code spec} with its site's request and its needs in SGE's words ({@link SgeClaim}). */
    @Override
    public String submit(PilotSpec spec) throws ManagerFailure {
        String nativeSpec = SgeClaim.nativeSpec(spec);
        String id = call(() -> drmaa.submit(spec, nativeSpec));
        // what SGE limits the pilot to, from all it was asked: the site's own request may claim memory too
        Long claim = SgeRequest.parse(nativeSpec).claimMib();
        if (claim != null) {
            claims.put(id, claim);
        }
        return id;
    }

    @Override
    public void cancel(String id) throws ManagerFailure {
        call(() -> {
            drmaa.kill(id);
            return null;
        });
    }

    @Override
    public PilotState state(String id) throws ManagerFailure {
        return call(() -> drmaa.state(id));
    }

    @Override
    public Optional<EndedJob> awaitEnded(Duration timeout) throws ManagerFailure {
        Optional<JobInfo> info = call(() -> drmaa.awaitAnyFinished(timeout));
        if (info.isEmpty()) {
            return Optional.empty();
        }
        String id = call(info.get()::getJobId);
        return Optional.of(new EndedJob(id, end(info.get()), memory(info.get(), claims.remove(id))));
    }

    @Override
    public Optional<JobEnd> accounting(String id) {
        return Accounting.lookUp(commands, id);
    }

    @Override
    public Optional<EndedJob> accounted(String id) {
        claims.remove(id);
        return Accounting.lookUpEnded(commands, id);
    }

    @Override
    public ClusterLoad load(Predicate<CellJob> ours) {
        QstatXml.Result qstat = QstatXml.parse(commands.qstatFull(), ours);
        // which host holds the GPUs of a job spread over several is asked only when there is one
        var held = qstat.spread().isEmpty() ? qstat.held() : qstat.held(QstatXml.masters(commands.qstatTasks()));
        return new ClusterLoad(QhostXml.parse(commands.qhostResources(), held), qstat.queues(), qstat.jobs());
    }

    @Override
    public void probe() {
        probe.run("qstat", "-u", agentUser);
    }

    @Override
    public String probeName() {
        return "qstat -u " + agentUser;
    }

    @Override
    public Optional<Call> oldestCall() {
        return drmaa.oldestCall();
    }

    /** What DRMAA's finish record says; SGE reports a job deleted while queued or running as aborted. */
    static JobEnd end(JobInfo info) {
        try {
            if (info.hasExited()) {
                return new JobEnd.Exited(info.getExitStatus());
            }
            if (info.hasSignaled()) {
                return new JobEnd.Signalled(info.getTerminatingSignal());
            }
            return new JobEnd.Deleted("deleted in SGE before it finished (qdel, or its node was lost)");
        } catch (DrmaaException e) {
            return new JobEnd.Failed("finished, but SGE gave no details: " + e.getMessage());
        }
    }

    /**
     * What DRMAA's finish record says of memory: SGE's {@code maxvmem} against the claim; SGE stopped
     * the job for it when it was killed with SIGKILL (the execution daemon's way) past its claim.
     */
    static MemoryUse memory(JobInfo info, Long claimMib) {
        try {
            boolean killed = info.hasSignaled() && "SIGKILL".equals(info.getTerminatingSignal());
            return Accounting.memory(claimMib, Accounting.maxvmem(info.getResourceUsage()), killed);
        } catch (DrmaaException e) {
            return Accounting.memory(claimMib, null, false);
        }
    }

    @FunctionalInterface
    private interface DrmaaCall<T> {
        T run() throws DrmaaException;
    }

    /** Runs a DRMAA call, its failure in the seam's terms. */
    private static <T> T call(DrmaaCall<T> work) throws ManagerFailure {
        try {
            return work.run();
        } catch (DrmaaException e) {
            throw failure(e);
        }
    }

    private static ManagerFailure failure(DrmaaException e) {
        if (e instanceof DrmCommunicationException) {
            return new ManagerLost(e.getMessage(), e);
        }
        if (e instanceof InvalidJobException) {
            return new UnknownJob(e.getMessage(), e);
        }
        return new ManagerFailure(e.getMessage(), e);
    }
}
