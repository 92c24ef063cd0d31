package koala.api.scheduler;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a job or a framework instance used, written once when it ends: one JSON line of the
 * scheduler's accounting file, and what {@code koala acct} shows. The figures are the scheduler's
 * own books; a figure it was not told is {@code null} (unknown), never a guess.
 *
 * <p>A node is <em>granted</em> from the moment its pilot runs and its launcher has called back
 * (the node is KOALA's) until its command ended, KOALA gave it back, or its pilot was found gone:
 * a node that waits for the rest of a co-allocated job counts, a pilot still queued in SGE does not.
 *
 * @param id              the job's id; an instance's is the id of the allocation its runner held
 * @param kind            {@link #JOB} or {@link #INSTANCE}
 * @param name            the job's name; an instance's framework name
 * @param policy          a job's placement policy; an instance's provisioning policy
 * @param state           FINISHED, FAILED or CANCELLED
 * @param exitStatus      a job's: 0 when every node's command ended 0, else the first other status in node
 *                        order (-124: stopped past its {@code maxWallTime}); null when no command ended (cancelled,
 *                        a node lost) and for an instance
 * @param reason          why it ended, as its last transition says
 * @param startedAt       when it began to run (every node claimed; an instance: opened); null if it never ran
 * @param elapsedSeconds  from {@code startedAt} to {@code endedAt}; null if it never ran
 * @param sites           the sites of the nodes it was granted, sorted
 * @param nodes           how many nodes it was granted over its life (a node placed again counts once)
 * @param peakNodes       the most it held at once
 * @param nodeSeconds     granted node-seconds, summed over its nodes
 * @param busyNodeSeconds a job's: node-seconds its nodes' commands ran; an instance's: worker node-seconds its runner
 *                        reported the worker busy (null when it held workers and its runner never reported them)
 * @param reportedNodeSeconds an instance's worker node-seconds its runner's reports covered (the rest, its runner
 *                        silent, counts as neither busy nor using CPU); null for a job
 * @param busyEfficiency  busy over granted: a job's over all its node-seconds, an instance's over its workers'; null
 *                        when nothing was granted
 * @param coreSeconds     granted node-seconds times each node's cores: the {@code cores} its component asked for,
 *                        or, for a node that asked for nothing ({@code cores}, {@code memory} and {@code gpus} all
 *                        left out), the cores of a node of its site ({@code site.S.node.cores}); null when such a
 *                        site's cores are not known
 * @param memoryGbSeconds granted node-seconds times the memory each node asked for, in GB of 1024 MiB (the JDF's
 *                        {@code G}); a node that asked for no memory counts none (Slurm's TRES {@code mem}, in GB)
 * @param gpuSeconds      granted node-seconds times the GPUs each node asked for
 * @param cpuSeconds      CPU time used, as {@code cpuFrom} measured it; null: unknown
 * @param cpuEfficiency   {@code cpuSeconds} over the core-seconds of the nodes it was measured on (Slurm's seff: CPU
 *                        time over core-wall time); null when either is unknown
 * @param cpuFrom         what measured it: {@link #FROM_LAUNCHERS} (each node's launcher, at exit, for every
 *                        node of the job) or {@link #FROM_RUNNER} (an instance's workers, from the utilization its
 *                        runner reports each second); null when unknown
 * @param roles           an instance's nodes and granted node-seconds per role (master, orchestrator, worker); null
 *                        for a job
 * @param grows           an instance's granted grows (its initial deployment's included); 0 for a job
 * @param grownNodes      the nodes those grows granted
 * @param shrinks         times nodes were taken from a running instance (given back by it, or taken back by the
 *                        grid's arbitration)
 * @param shrunkNodes     granted nodes that ended that way, before the instance ended
 * @param refusedGrows    grows refused (grid full, arbitration)
 */
@JsonInclude(JsonInclude.Include.ALWAYS) // an unknown figure is written as null, not left out
public record UsageRecord(long id, String kind, String name, String owner, String policy, String state,
                          Integer exitStatus, String reason, Instant submittedAt, Instant startedAt, Instant endedAt,
                          Double elapsedSeconds, List<String> sites, int nodes, int peakNodes, double nodeSeconds,
                          Double busyNodeSeconds, Double reportedNodeSeconds, Double busyEfficiency,
                          Double coreSeconds, Double memoryGbSeconds, Double gpuSeconds, Double cpuSeconds,
                          Double cpuEfficiency, String cpuFrom, Map<String, RoleUsage> roles, int grows, int grownNodes,
                          int shrinks, int shrunkNodes, int refusedGrows) {
    public static final String JOB = "job";
    public static final String INSTANCE = "instance";
    public static final String FROM_LAUNCHERS = "node launchers";
    public static final String FROM_RUNNER = "runner samples of workers";

    public UsageRecord {
        sites = sites == null ? List.of() : List.copyOf(sites);
        roles = roles == null ? null : Collections.unmodifiableMap(new TreeMap<>(roles)); // in role order
    }

    /** A record with no memory or GPU figures: as a record written before they were counted reads. */
    public UsageRecord(long id, String kind, String name, String owner, String policy, String state,
                       Integer exitStatus, String reason, Instant submittedAt, Instant startedAt, Instant endedAt,
                       Double elapsedSeconds, List<String> sites, int nodes, int peakNodes, double nodeSeconds,
                       Double busyNodeSeconds, Double reportedNodeSeconds, Double busyEfficiency,
                       Double coreSeconds, Double cpuSeconds, Double cpuEfficiency, String cpuFrom,
                       Map<String, RoleUsage> roles, int grows, int grownNodes, int shrinks, int shrunkNodes,
                       int refusedGrows) {
        this(id, kind, name, owner, policy, state, exitStatus, reason, submittedAt, startedAt, endedAt, elapsedSeconds,
                sites, nodes, peakNodes, nodeSeconds, busyNodeSeconds, reportedNodeSeconds, busyEfficiency, coreSeconds,
                null, null, cpuSeconds, cpuEfficiency, cpuFrom, roles, grows, grownNodes, shrinks, shrunkNodes,
                refusedGrows);
    }

    /** One role of an instance: its nodes over the instance's life, and their granted node-seconds. */
    public record RoleUsage(int nodes, double nodeSeconds) {
    }
}
