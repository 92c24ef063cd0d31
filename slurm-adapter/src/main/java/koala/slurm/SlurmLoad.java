package koala.slurm;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import koala.api.site.CellJob;
import koala.api.site.HostInfo;
import koala.api.site.MemoryUse;
import koala.api.site.PilotState;
import koala.api.site.QueueInstance;
import koala.resourcemanager.ClusterLoad;

/**
 * A Slurm cluster as KOALA's snapshot shows it, from one {@code sinfo --json} and one {@code squeue --json}.
 *
 * <p>Slurm's partitions are not SGE's queue instances: a node in two partitions offers its cores to both, and
 * the scheduler adds up the free slots of a host's queue instances. So each node is one queue instance, named
 * after its partitions ({@code debug,long@n1}), offering the node's cores. A job's queue is its partition at
 * the host its batch script runs on ({@code debug@n1}); jobs that ended are left out, as {@code qstat} does.
 */
final class SlurmLoad {
    private SlurmLoad() {
    }

    static ClusterLoad of(List<SlurmNode> nodes, List<SlurmJob> jobs, boolean memoryBooked, Predicate<CellJob> ours,
                          ZoneId zone) {
        List<HostInfo> hosts = new ArrayList<>();
        List<QueueInstance> queues = new ArrayList<>();
        for (SlurmNode n : nodes) {
            long used = memoryBooked ? n.memoryUsedMib() : Math.max(0, n.memoryMib() - n.freeMib());
            hosts.add(new HostInfo(n.name(), n.architecture(), n.cpus(), n.load(), MemoryUse.size(n.memoryMib()),
                    MemoryUse.size(used), n.resources(memoryBooked, n.freeMib())));
            queues.add(new QueueInstance(String.join(",", n.partitions()) + "@" + n.name(), n.name(), n.cpus(),
                    n.cpusUsed(), 0, n.usable(), states(n)));
        }
        List<CellJob> cellJobs = jobs.stream().filter(j -> !j.pilotState().isFinal()).map(j -> job(j, ours, zone))
                .toList();
        return new ClusterLoad(hosts, queues, cellJobs);
    }

    /** Its state as {@code scontrol show node} writes it: {@code IDLE}, {@code MIXED+DRAIN}. */
    static String states(SlurmNode n) {
        StringBuilder s = new StringBuilder(n.state().toUpperCase());
        n.flags().forEach(f -> s.append('+').append(f));
        return s.toString();
    }

    private static CellJob job(SlurmJob j, Predicate<CellJob> ours, ZoneId zone) {
        boolean placed = j.pilotState() != PilotState.QUEUED && !j.batchHost().isEmpty();
        Instant since = placed && j.started() != null ? j.started() : j.submitted();
        CellJob job = new CellJob(j.id(), j.name(), j.user(), j.state(), j.cpus(),
                placed ? j.partition() + "@" + j.batchHost() : null,
                since == null ? null : LocalDateTime.ofInstant(since, zone), false);
        return ours.test(job) ? new CellJob(job.id(), job.name(), job.owner(), job.state(), job.slots(), job.queue(),
                job.since(), true) : job;
    }
}
