package koala.sge;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import koala.api.site.CellJob;
import koala.api.site.QueueInstance;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Reads {@code qstat -f -xml -u '*'}: the queue instances with the jobs running in them, then
 * the pending jobs. Array-job tasks become one entry each, named {@code id.task}.
 */
public final class QstatXml {
    private static final String UNUSABLE = "uEdDsSCc";

    /** Queue instances and jobs of one cell. */
    public record Result(List<QueueInstance> queues, List<CellJob> jobs) {
    }

    private QstatXml() {
    }

    /** @param koala tells KOALA's pilots from local users' jobs */
    public static Result parse(String xml, Predicate<CellJob> koala) {
        Document doc = SgeXml.parse(xml, "qstat");
        Element root = doc.getDocumentElement();
        List<QueueInstance> queues = new ArrayList<>();
        List<CellJob> jobs = new ArrayList<>();
        Element queueInfo = SgeXml.child(root, "queue_info");
        if (queueInfo != null) {
            for (Element q : SgeXml.children(queueInfo, "Queue-List")) {
                QueueInstance queue = queue(q);
                queues.add(queue);
                SgeXml.children(q, "job_list").forEach(j -> jobs.add(job(j, queue.name(), koala)));
            }
        }
        Element pending = SgeXml.child(root, "job_info");
        if (pending != null) {
            SgeXml.children(pending, "job_list").forEach(j -> jobs.add(job(j, null, koala)));
        }
        return new Result(queues, jobs);
    }

    private static QueueInstance queue(Element q) {
        String name = SgeXml.text(q, "name");
        String host = name.contains("@") ? name.substring(name.indexOf('@') + 1) : name;
        String states = SgeXml.text(q, "state") == null ? "" : SgeXml.text(q, "state");
        return new QueueInstance(name, host, SgeXml.integer(q, "slots_total", 0), SgeXml.integer(q, "slots_used", 0),
                SgeXml.integer(q, "slots_resv", 0), usable(states), states);
    }

    /**
     * True when SGE would start a new job in a queue instance with these state letters: none of
     * {@code u} unreachable, {@code E} error, {@code d}/{@code D} disabled (by hand, by calendar),
     * {@code s}/{@code S} suspended (by hand, by a subordinate queue), {@code C}/{@code c} suspended
     * by calendar or configuration ambiguous. {@code a} (alarm) alone still takes jobs.
     */
    static boolean usable(String states) {
        return states.chars().noneMatch(c -> UNUSABLE.indexOf(c) >= 0);
    }

    private static CellJob job(Element j, String queue, Predicate<CellJob> koala) {
        String id = SgeXml.text(j, "JB_job_number");
        String tasks = SgeXml.text(j, "tasks");
        if (tasks != null && !tasks.isEmpty()) {
            id = id + "." + tasks;
        }
        String time = queue != null ? SgeXml.text(j, "JAT_start_time") : SgeXml.text(j, "JB_submission_time");
        CellJob job = new CellJob(id, SgeXml.text(j, "JB_name"), SgeXml.text(j, "JB_owner"), SgeXml.text(j, "state"),
                SgeXml.integer(j, "slots", 1), queue, time == null ? null : LocalDateTime.parse(time), false);
        return koala.test(job) ? new CellJob(job.id(), job.name(), job.owner(), job.state(), job.slots(), job.queue(),
                job.since(), true) : job;
    }
}
