package koala.slurm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import koala.api.site.CellJob;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.resourcemanager.ClusterLoad;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;
import koala.resourcemanager.ManagerFailure;
import koala.resourcemanager.ManagerLost;
import koala.resourcemanager.ManagerUnreachable;
import koala.resourcemanager.ResourceManager;
import koala.resourcemanager.UnknownJob;

/**
 * A Slurm cluster as a {@link ResourceManager}, through its client commands ({@link SlurmCommands}): {@code sbatch}
 * submits, {@code scancel} cancels, {@code squeue} tells where jobs are and when they end, {@code sinfo} with
 * {@code squeue} the cluster's load, and {@code sacct} how a job the controller has forgotten ended.
 *
 * <p>Slurm has no session: a connection is a controller that answered ({@code scontrol show config}, which also
 * tells whether it books memory and keeps accounting), and it is lost when a call finds the controller gone.
 * The jobs submitted under the current connection are the ones {@link #awaitEnded} watches, by looking at
 * {@code squeue --json} every {@code pollEvery}; the controller lists a finished job for {@code MinJobAge}
 * (300 s by default), so a look each second sees every end, and a job gone unseen is looked up in accounting.
 *
 * <p>{@code scancel} of a job Slurm does not know exits 0 and says nothing; with {@code -v} it says {@code
 * Invalid job id specified}, which is how an unknown job is told here, in the same one call.
 */
public final class SlurmResourceManager implements ResourceManager {
    /** How long {@link #awaitEnded} waits between two looks at the queue. */
    static final Duration POLL = Duration.ofSeconds(1);
    private static final Pattern KILL_ERROR = Pattern.compile("Kill job error on job id \\S+: (.*)");

    /** Waits between two looks at the queue: the real one parks the thread, a test's advances its clock. */
    @FunctionalInterface
    public interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    private final SlurmCalls calls;
    private final Duration probeTimeout;
    private final String agentUser;
    private final InstantSource clock;
    private final Pause pause;
    private final ZoneId zone;
    /** The jobs of the current connection that have not been seen to end, in the order they were submitted. */
    private final Set<String> watched = Collections.synchronizedSet(new LinkedHashSet<>());
    private volatile boolean connected;
    private volatile int connection;
    private volatile SlurmConfig config;

    SlurmResourceManager(SlurmCommands commands, Duration commandTimeout, Duration probeTimeout, String agentUser,
                         InstantSource clock, Pause pause, ZoneId zone) {
        this.calls = new SlurmCalls(commands, commandTimeout, clock);
        this.probeTimeout = probeTimeout;
        this.agentUser = agentUser;
        this.clock = clock;
        this.pause = pause;
        this.zone = zone;
    }

    /**
     * The cluster whose commands are in {@code binDir} and whose configuration is {@code slurmConf}.
     *
     * @param commandTimeout how long a command may take before the controller counts as gone
     * @param probeTimeout   how long the health probe may take
     * @param agentUser      the account the agent runs as: the probe asks for its jobs only, which is quick
     */
    public static SlurmResourceManager of(Path binDir, Path slurmConf, String agentUser, Duration commandTimeout,
                                          Duration probeTimeout, InstantSource clock) {
        return new SlurmResourceManager(SlurmCommands.local(binDir, slurmConf), commandTimeout, probeTimeout, agentUser,
                clock, d -> {
                    LockSupport.parkNanos(d.toNanos());
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }, ZoneId.systemDefault());
    }

    /**
     * The {@code sbatch} request a pilot is: its name, command, arguments, environment, output files and
     * working directory, on one node, with what it claims there ({@link PilotSpec#needs}: cores, memory, GPUs,
     * wall time, host, account; {@link SbatchRequest#of}). Its native specification, the site's own words, is
     * not passed (see {@link SbatchRequest#of}).
     */
    public static SbatchRequest request(PilotSpec spec) {
        return SbatchRequest.of(spec);
    }

    @Override
    public String name() {
        return "Slurm";
    }

    @Override
    public String system() {
        SlurmConfig c = config;
        return c == null ? "" : c.system();
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
        if (!connected) {
            config = SlurmConfig.parse(text(calls.ask("", "scontrol", "show", "config")));
            watched.clear();
            connection++;
            connected = true;
        }
    }

    /** Not synchronized with {@link #connect}: closing must not wait for a controller that does not answer. */
    @Override
    public void disconnect() {
        connected = false;
    }

    @Override
    public void validate(PilotSpec spec) {
        SlurmPilots.validate(spec);
    }

    @Override
    public String submit(PilotSpec spec) throws ManagerFailure {
        requireConnection();
        SbatchRequest request = request(spec);
        List<String> command = new ArrayList<>(List.of("sbatch"));
        command.addAll(request.options());
        String printed = text(calls.ask(request.script(), command.toArray(String[]::new))).strip();
        String id = printed.split(";")[0]; // --parsable: "ID", or "ID;CLUSTER" on a federation
        if (!id.matches("\\d+")) {
            throw new ManagerFailure("sbatch printed no job id: '" + printed + "'");
        }
        watched.add(id);
        return id;
    }

    @Override
    public void cancel(String id) throws ManagerFailure {
        SlurmCommands.Answer answer = calls.answer("scancel", "-v", id);
        String what = "scancel " + id;
        if (answer.exit() != 0) {
            throw SlurmCalls.failure(what, answer);
        }
        Matcher refused = KILL_ERROR.matcher(answer.err());
        if (refused.find()) {
            String reason = refused.group(1).strip();
            if (reason.equals(SlurmCalls.INVALID_JOB)) {
                throw new UnknownJob(what + ": " + reason, null);
            }
            if (!reason.contains("already completing or completed")) {
                throw new ManagerFailure(what + ": " + reason);
            }
        }
    }

    @Override
    public PilotState state(String id) throws ManagerFailure {
        String line = text(calls.ask("", "squeue", "-h", "-t", "all", "-j", id, "-o", "%i|%T|%r")).strip();
        if (line.isEmpty()) {
            throw new UnknownJob("squeue -j " + id + ": Slurm does not list it", null);
        }
        String[] fields = line.lines().findFirst().orElseThrow().split("\\|", -1);
        return SlurmJob.pilotState(fields[1], fields.length > 2 ? fields[2] : "");
    }

    @Override
    public Optional<EndedJob> awaitEnded(Duration timeout) throws ManagerFailure {
        requireConnection();
        Instant deadline = clock.instant().plus(timeout);
        while (true) {
            Optional<EndedJob> ended = firstEnded();
            Duration left = Duration.between(clock.instant(), deadline);
            if (ended.isPresent() || left.isNegative() || left.isZero()) {
                return ended;
            }
            try {
                pause.pause(left.compareTo(POLL) < 0 ? left : POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }

    /** The first watched job that has ended, or that Slurm no longer lists; it is watched no more. */
    private Optional<EndedJob> firstEnded() throws ManagerFailure {
        List<String> ids;
        synchronized (watched) {
            ids = List.copyOf(watched);
        }
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        Map<String, SlurmJob> listed = listed().stream()
                .collect(Collectors.toMap(SlurmJob::id, Function.identity(), (a, b) -> a));
        for (String id : ids) {
            SlurmJob job = listed.get(id);
            if (job == null || job.pilotState().isFinal()) {
                watched.remove(id);
                return Optional.of(job != null ? SlurmEnds.ended(job) : recorded(id).map(end -> new EndedJob(id, end))
                        .orElseGet(() -> new EndedJob(id, new JobEnd.Failed("Slurm forgot it before it was seen to end,"
                                + " and keeps no record of how it ended"))));
            }
        }
        return Optional.empty();
    }

    /**
     * Every job the controller lists. {@code squeue --json} exits 0 when the controller is gone, its {@code errors}
     * saying {@code Failed while looking for jobs}: that is a lost controller too.
     */
    private List<SlurmJob> listed() throws ManagerFailure {
        byte[] answer = calls.ask("", "squeue", "--json");
        try {
            return SlurmJson.jobs(answer);
        } catch (ManagerFailure e) {
            throw new ManagerLost(e.getMessage(), e);
        }
    }

    @Override
    public Optional<JobEnd> accounting(String id) {
        return accounted(id).map(EndedJob::end);
    }

    /** While the controller still lists the ended job, what it says (with its memory); then its accounting. */
    @Override
    public Optional<EndedJob> accounted(String id) {
        try {
            Optional<SlurmJob> listed = SlurmJson.jobs(calls.look("squeue", "--json")).stream()
                    .filter(j -> j.id().equals(id)).findFirst();
            if (listed.isPresent()) {
                return listed.get().pilotState().isFinal() ? Optional.of(SlurmEnds.ended(listed.get())) : Optional.empty();
            }
        } catch (ManagerFailure | ManagerUnreachable e) {
            // the record may still tell
        }
        return recorded(id).map(end -> new EndedJob(id, end));
    }

    /** The job's record: {@code sacct} when slurmdbd keeps accounting, {@code sacct -c} when a jobcomp file does. */
    private Optional<JobEnd> recorded(String id) {
        try {
            SlurmConfig c = config();
            if (c.accounting()) {
                return SlurmEnds.fromSacct(id, text(calls.look("sacct", "-X", "-j", id, "-P", "-n", "-o",
                        "JobID,State,ExitCode,NodeList")));
            }
            if (c.jobCompletions()) {
                return SlurmEnds.fromSacct(id, text(calls.look("sacct", "-c", "-j", id, "-P", "-n", "-o",
                        "JobID,State,ExitCode,NodeList")));
            }
            return Optional.empty();
        } catch (ManagerUnreachable e) {
            return Optional.empty();
        }
    }

    @Override
    public ClusterLoad load(Predicate<CellJob> ours) {
        boolean memoryBooked = config().memoryBooked();
        try {
            List<SlurmNode> nodes = SlurmJson.nodes(calls.look("sinfo", "--json"));
            List<SlurmJob> jobs = SlurmJson.jobs(calls.look("squeue", "--json"));
            return SlurmLoad.of(nodes, jobs, memoryBooked, ours, zone);
        } catch (ManagerFailure e) {
            throw new ManagerUnreachable(e.getMessage());
        }
    }

    @Override
    public void probe() {
        calls.look(probeTimeout, "squeue", "-u", agentUser, "-h");
    }

    @Override
    public String probeName() {
        return "squeue -u " + agentUser + " -h";
    }

    @Override
    public Optional<Call> oldestCall() {
        return calls.oldestCall();
    }

    /** The controller's configuration as the last connection read it, or read now for a look before any. */
    private SlurmConfig config() {
        SlurmConfig c = config;
        return c != null ? c : SlurmConfig.parse(text(calls.look("scontrol", "show", "config")));
    }

    private void requireConnection() throws ManagerLost {
        if (!connected) {
            throw new ManagerLost("no connection to Slurm's controller", null);
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
