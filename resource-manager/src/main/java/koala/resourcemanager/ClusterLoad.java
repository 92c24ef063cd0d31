package koala.resourcemanager;

import java.util.List;
import koala.api.site.CellJob;
import koala.api.site.HostInfo;
import koala.api.site.QueueInstance;

/** A cluster as its manager shows it at one moment: hosts with their load, queues, and every job. */
public record ClusterLoad(List<HostInfo> hosts, List<QueueInstance> queues, List<CellJob> jobs) {
    public ClusterLoad {
        hosts = List.copyOf(hosts);
        queues = List.copyOf(queues);
        jobs = List.copyOf(jobs);
    }
}
