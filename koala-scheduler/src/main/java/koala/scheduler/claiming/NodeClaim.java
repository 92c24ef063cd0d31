package koala.scheduler.claiming;

import java.time.Instant;
import java.util.List;

/**
 * One node of a job: a pilot job on a site.
 *
 * @param id          {@code <job>.<component>.<rank>}; a re-placed node keeps its id
 * @param attempt     how many times this node has been claimed (1 for the first)
 * @param pilot       the SGE job id, null until the agent accepted the pilot
 * @param token       secret the node's launcher presents to the scheduler
 * @param host        where it runs once it arrived; before, the host its pilot is pinned to (a placement
 *                    that chose hosts, for constraints over hosts or racks), or null when SGE chooses
 * @param submittedAt when its current pilot was submitted
 * @param daemon      on a node of an MPI job other than the first: the Open MPI daemon its first node's
 *                    {@code mpirun} asked it to run (null until asked); kept with the node, so that a
 *                    scheduler restarted before the node took it still hands it on
 * @param gpus        the GPU devices of its host given to it ({@code CUDA_VISIBLE_DEVICES}), null until
 *                    given; kept with the node, so that a restarted scheduler gives no other node the same
 */
public record NodeClaim(String id, long job, int component, int rank, String site, NodeState state, String pilot,
                        String host, Integer exitStatus, String token, Instant submittedAt, int attempt,
                        List<String> daemon, List<Integer> gpus) {

    public NodeClaim {
        daemon = daemon == null ? null : List.copyOf(daemon);
        gpus = gpus == null ? null : List.copyOf(gpus);
    }

    /** A node given no GPU device. */
    public NodeClaim(String id, long job, int component, int rank, String site, NodeState state, String pilot,
                     String host, Integer exitStatus, String token, Instant submittedAt, int attempt, List<String> daemon) {
        this(id, job, component, rank, site, state, pilot, host, exitStatus, token, submittedAt, attempt, daemon, null);
    }

    /** A node no daemon was asked of. */
    public NodeClaim(String id, long job, int component, int rank, String site, NodeState state, String pilot,
                     String host, Integer exitStatus, String token, Instant submittedAt, int attempt) {
        this(id, job, component, rank, site, state, pilot, host, exitStatus, token, submittedAt, attempt, null);
    }

    /** Asked by its first node's {@code mpirun} to run {@code command}, one of Open MPI's daemons. */
    public NodeClaim askedToRun(List<String> command) {
        return new NodeClaim(id, job, component, rank, site, state, pilot, host, exitStatus, token, submittedAt, attempt,
                command, gpus);
    }

    public NodeClaim with(NodeState next) {
        return new NodeClaim(id, job, component, rank, site, next, pilot, host, exitStatus, token, submittedAt, attempt,
                daemon, gpus);
    }

    public NodeClaim arrived(String onHost) {
        return new NodeClaim(id, job, component, rank, site, NodeState.ARRIVED, pilot, onHost, exitStatus, token,
                submittedAt, attempt, daemon, gpus);
    }

    public NodeClaim exited(int status) {
        return new NodeClaim(id, job, component, rank, site, NodeState.EXITED, pilot, host, status, token, submittedAt,
                attempt, daemon, gpus);
    }

    public NodeClaim submitted(String pilotId, Instant at) {
        return new NodeClaim(id, job, component, rank, site, NodeState.SUBMITTED, pilotId, host, null, token, at, attempt);
    }

    /** Its pilot's SGE job id, learnt when the submit returned: the node may have arrived already. */
    public NodeClaim withPilot(String pilotId) {
        return new NodeClaim(id, job, component, rank, site, state, pilotId, host, exitStatus, token, submittedAt,
                attempt, daemon, gpus);
    }

    /** Given {@code devices} of its host's GPUs. */
    public NodeClaim withGpus(List<Integer> devices) {
        return new NodeClaim(id, job, component, rank, site, state, pilot, host, exitStatus, token, submittedAt,
                attempt, daemon, devices);
    }

    public NodeClaim movedTo(String newSite, String newToken) {
        return movedTo(newSite, null, newToken);
    }

    /** Claimed again on {@code newSite}, its pilot pinned to {@code newHost} (null: SGE chooses). */
    public NodeClaim movedTo(String newSite, String newHost, String newToken) {
        return new NodeClaim(id, job, component, rank, newSite, NodeState.SUBMITTED, null, newHost, null, newToken, null,
                attempt + 1);
    }

    /** The SGE job name of its pilot: KOALA's prefix, the scheduler's tag, the node and the attempt. */
    public String pilotName(String tag) {
        return "koala-" + tag + "-" + id.replace('.', '-') + "-a" + attempt;
    }

    /** Whether an SGE job name is that of a pilot of the scheduler tagged {@code tag}. */
    public static boolean isPilotName(String name, String tag) {
        return name != null && name.matches("koala-" + java.util.regex.Pattern.quote(tag) + "-\\d+-\\d+-\\d+-a\\d+");
    }
}
