package koala.scheduler;

import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import koala.api.scheduler.NodeTask;
import koala.common.failure.NotFound;
import koala.common.failure.Unauthenticated;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.state.JobEvent;
import koala.scheduler.state.JobState;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Where node launchers report: a node has arrived on its host, what it should do now (wait, run
 * its component, exit), and how its command ended. Each request carries the node's secret token; a
 * wrong one is refused (401) and changes nothing.
 */
final class NodeDesk {
    private static final Logger LOG = LogManager.getLogger(NodeDesk.class);

    private final JobBook book;
    private final Consumer<Job> claims;
    private final Consumer<Job> running;
    private final BiFunction<String, NodeTask, NodeTask> forSite;
    /** A framework instance's task with its runner's address in force ({@link Frameworks#withRunnerInForce}). */
    private BiFunction<Long, NodeTask, NodeTask> runners = (id, task) -> task;
    /** Per site, the SGE slots of one node: the ranks an MPI job runs on it. */
    private final java.util.function.ToIntFunction<String> slots;
    private final java.time.InstantSource clock;
    private final koala.scheduler.metrics.GridEvents events;
    /** A host's GPU devices, by site and host; empty where the host has none or is not known. */
    private final BiFunction<String, String, java.util.List<Integer>> gpuDevices;

    /**
     * @param claims  checks a claiming job after one of its nodes arrived
     * @param running checks a running job after one of its nodes exited
     * @param forSite a task as a node of the given site must see it (addresses it can reach)
     * @param events  told how long a node an instance grew by took to arrive
     */
    NodeDesk(JobBook book, Consumer<Job> claims, Consumer<Job> running, BiFunction<String, NodeTask, NodeTask> forSite,
             java.util.function.ToIntFunction<String> slots, java.time.InstantSource clock,
             koala.scheduler.metrics.GridEvents events) {
        this(book, claims, running, forSite, slots, clock, events, (site, host) -> java.util.List.of());
    }

    /** @param gpuDevices a host's GPU devices, by site and host (empty where none, or not known) */
    NodeDesk(JobBook book, Consumer<Job> claims, Consumer<Job> running, BiFunction<String, NodeTask, NodeTask> forSite,
             java.util.function.ToIntFunction<String> slots, java.time.InstantSource clock,
             koala.scheduler.metrics.GridEvents events, BiFunction<String, String, java.util.List<Integer>> gpuDevices) {
        this.gpuDevices = gpuDevices;
        this.book = book;
        this.slots = slots;
        this.claims = claims;
        this.running = running;
        this.forSite = forSite;
        this.clock = clock;
        this.events = events;
    }

    /** A launcher says its pilot runs on {@code host}; answers what it should do. */
    NodeTask arrive(String nodeId, String token, String host) {
        Job job = jobOfNode(nodeId, token);
        NodeClaim node = job.node(nodeId);
        if (node.state() == NodeState.SUBMITTED) {
            book.save(job, node.arrived(host));
            LOG.info("node {} arrived on {} ({})", nodeId, node.site(), host);
            if (job.allocation() && node.submittedAt() != null) {
                // an allocation's node is claimed when its grow is granted: this is the grow's O_grow
                events.grownNodeArrived(node.site(), java.time.Duration.between(node.submittedAt(), clock.instant()));
            }
            claims.accept(job);
        }
        return task(nodeId, token);
    }

    /** What a launcher should do now. */
    NodeTask task(String nodeId, String token) {
        Job job = jobOfNode(nodeId, token);
        NodeClaim node = job.node(nodeId);
        if (!node.state().held() || job.state().ended()) {
            return NodeTask.exit();
        }
        if (job.state() != JobState.RUNNING) {
            return NodeTask.waiting();
        }
        node = withGpus(job, node);
        if (node == null) {
            return NodeTask.waiting();
        }
        if (job.description().mpi() && !ComponentLaunch.head(job.nodes()).id().equals(nodeId)) {
            return daemonTask(job, node);
        }
        if (node.state() == NodeState.ARRIVED) {
            book.save(job, node.with(NodeState.RUNNING));
        }
        return forSite.apply(node.site(), runners.apply(job.id(), ComponentLaunch.task(job.record(), job.description(),
                node, job.nodes(), slots)));
    }

    /**
     * How a framework instance's task gets its runner's address now: a runner started in the place of one on
     * another host serves elsewhere, and the launchers that ask again (their runner silent) learn it here.
     */
    void runners(BiFunction<Long, NodeTask, NodeTask> runners) {
        this.runners = runners;
    }

    /**
     * The node with its GPU devices given, once, from its host's that no other node the books hold
     * there has: every node on a host with GPUs gets its list (empty when it asked for none), kept
     * with the node before its task is answered. Null while too few are free (a node before it on
     * the host has not given its devices back yet).
     */
    private NodeClaim withGpus(Job job, NodeClaim node) {
        if (node.gpus() != null || node.host() == null) {
            return node;
        }
        java.util.List<Integer> devices = gpuDevices.apply(node.site(), node.host());
        int wanted = NodeNeeds.perNode(job.description(), node).gpus();
        if (devices.isEmpty() && wanted == 0) {
            return node;
        }
        java.util.List<Integer> taken = book.all().stream().flatMap(j -> j.heldNodes().stream())
                .filter(n -> node.host().equals(n.host()) && n.gpus() != null && !n.id().equals(node.id()))
                .flatMap(n -> n.gpus().stream()).toList();
        java.util.List<Integer> chosen = koala.scheduler.claiming.GpuDevices.choose(devices, taken, wanted);
        if (chosen == null) {
            LOG.info("node {} waits for {} GPU(s) on {}: its devices {} are given to other nodes ({})", node.id(),
                    wanted, node.host(), devices, taken);
            return null;
        }
        NodeClaim given = node.withGpus(chosen);
        book.save(job, given);
        return given;
    }

    /**
     * A node of an MPI job other than the first waits for the daemon {@code mpirun} starts on it; once
     * the first node has ended, a node that got none is done (exit 0) and told to give itself back.
     */
    private NodeTask daemonTask(Job job, NodeClaim node) {
        java.util.List<String> command = node.daemon();
        if (command != null) {
            if (node.state() == NodeState.ARRIVED) {
                book.save(job, node.with(NodeState.RUNNING));
            }
            return forSite.apply(node.site(), ComponentLaunch.daemon(job.record(), job.description(), node,
                    job.nodes(), command));
        }
        if (ComponentLaunch.head(job.nodes()).state() == NodeState.EXITED) {
            book.save(job, node.exited(0));
            running.accept(job);
            return NodeTask.exit();
        }
        return NodeTask.waiting();
    }

    /**
     * The first node of MPI job asks for one of Open MPI's daemons on {@code host}: the job's node
     * there that has none yet runs it. Answers that node's id once the request is kept with the node.
     */
    String mpiStart(String headId, String token, String host, java.util.List<String> command) {
        Job job = jobOfNode(headId, token);
        if (!job.description().mpi() || job.state() != JobState.RUNNING
                || !ComponentLaunch.head(job.nodes()).id().equals(headId)) {
            throw new koala.common.failure.Conflict("node " + headId + " is not the first node of a running MPI job");
        }
        if (command.isEmpty()) {
            throw new koala.common.failure.InvalidField("command", "missing: the daemon's command line");
        }
        NodeClaim there = job.nodes().stream().filter(n -> host.equals(n.host()) && !n.id().equals(headId)
                        && n.state().held() && n.daemon() == null).findFirst()
                .orElseThrow(() -> new koala.common.failure.Conflict("host: no node of job " + job.id() + " on " + host
                        + " waits for a daemon", "host"));
        // kept with the node before mpirun's agent is answered: a scheduler restarted before the node
        // asks for its task still hands the daemon on, and mpirun does not wait for it in vain
        book.save(job, there.askedToRun(command));
        LOG.info("job {}: mpirun on {} starts a daemon on {} (node {})", job.id(), headId, host, there.id());
        return there.id();
    }

    /** A launcher reports how its command ended. */
    NodeTask exited(String nodeId, String token, int status) {
        return exited(nodeId, token, status, null, null);
    }

    /**
     * A launcher reports how its command ended, and what it said of its end ({@code detail}, e.g.
     * {@code mpirun} naming the rank that ended an MPI world), which goes into the job's history.
     */
    NodeTask exited(String nodeId, String token, int status, String detail) {
        return exited(nodeId, token, status, detail, null);
    }

    /**
     * As {@link #exited(String, String, int, String)}, with the CPU time the command used if the
     * launcher measured it (for the job's usage record).
     */
    NodeTask exited(String nodeId, String token, int status, String detail, Double cpuSeconds) {
        Job job = jobOfNode(nodeId, token);
        NodeClaim node = job.node(nodeId);
        if (node.state() != NodeState.EXITED) {
            if (detail != null && !detail.isBlank()) {
                book.note(job, JobEvent.ENDED_SAYING, "node " + nodeId + " on " + node.host()
                        + ": " + clip(detail));
            }
            if (cpuSeconds != null && cpuSeconds >= 0 && Double.isFinite(cpuSeconds)) {
                book.measured(job, node, cpuSeconds);
            }
            book.save(job, node.exited(status));
            running.accept(job);
        }
        return NodeTask.exit();
    }

    /** A launcher's word is a line of history, not a log. */
    private static String clip(String detail) {
        String line = detail.strip().replaceAll("\\s+", " ");
        return line.length() <= 300 ? line : line.substring(0, 300) + "...";
    }

    private Job jobOfNode(String nodeId, String token) {
        Job job = book.find(jobIdOf(nodeId)).orElseThrow(() -> new NotFound("node " + nodeId));
        NodeClaim node = Optional.ofNullable(job.node(nodeId)).orElseThrow(() -> new NotFound("node " + nodeId));
        if (!node.token().equals(token)) {
            throw new Unauthenticated("token: wrong token for node " + nodeId, "token");
        }
        return job;
    }

    private static long jobIdOf(String nodeId) {
        try {
            return Long.parseLong(nodeId.substring(0, nodeId.indexOf('.')));
        } catch (RuntimeException e) {
            throw new NotFound("node " + nodeId);
        }
    }
}
