package koala.resourcemanager;

import java.util.List;
import koala.common.site.CellJob;
import koala.common.site.HostInfo;
import koala.common.site.QueueInstance;

/** A cluster as its manager shows it at one moment: hosts with their load, queues, and every job. */
public record ClusterLoad(List<HostInfo> hosts, List<QueueInstance> queues, List<CellJob> jobs) {
    public ClusterLoad {
        hosts = List.copyOf(hosts);
        queues = List.copyOf(queues);
        jobs = List.copyOf(jobs);
    }
}
