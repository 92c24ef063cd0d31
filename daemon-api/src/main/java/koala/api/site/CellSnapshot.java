package koala.api.site;

import java.time.Instant;
import java.util.List;

/**
 * What a cell looks like at one moment: its hosts, queue instances and every job in it. The
 * KOALA Information Service builds its view of a site from these.
 */
public record CellSnapshot(String site, Instant takenAt, List<HostInfo> hosts, List<QueueInstance> queues,
                           List<CellJob> jobs) {

    public CellSnapshot {
        hosts = List.copyOf(hosts);
        queues = List.copyOf(queues);
        jobs = List.copyOf(jobs);
    }

    public int slotsTotal() {
        return queues.stream().mapToInt(QueueInstance::slotsTotal).sum();
    }

    public int slotsUsed() {
        return queues.stream().mapToInt(QueueInstance::slotsUsed).sum();
    }

    /** Slots that a new job could start on now (usable queues only). */
    public int slotsFree() {
        return queues.stream().mapToInt(QueueInstance::slotsFree).sum();
    }

    public int slotsUsedByOthers() {
        return jobs.stream().filter(j -> j.running() && !j.koala()).mapToInt(CellJob::slots).sum();
    }

    public int slotsUsedByKoala() {
        return jobs.stream().filter(j -> j.running() && j.koala()).mapToInt(CellJob::slots).sum();
    }
}
