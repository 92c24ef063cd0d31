package koala.sge;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import koala.api.site.CellJob;
import koala.api.site.HostResources;
import koala.api.site.QueueInstance;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Reads {@code qstat -f -xml -u '*'}: the queue instances with the jobs running in them, then
 * the pending jobs. Array-job tasks become one entry each, named {@code id.task}. With {@code -r}
 * (what the agent runs) each running job's hard requests also say what it holds of the consumables
 * KOALA reads, per host ({@link Result#held}).
 */
public final class QstatXml {
    private static final String UNUSABLE = "uEdDsSCc";

    /**
     * Queue instances and jobs of one cell.
     *
     * @param held   per host, what its running jobs hold of {@code h_vmem} and {@code gpu}, but for the
     *               GPUs of jobs spread over several hosts ({@code spread}), which only {@link #held(Map)} places
     * @param spread the GPUs of each running job spread over several hosts, by job id: SGE books a
     *               per-job consumable on the host of the job's master task alone, which this output
     *               does not name
     */
    public record Result(List<QueueInstance> queues, List<CellJob> jobs, Map<String, QhostXml.Held> held,
                         Map<String, Integer> spread) {
        public Result {
            held = Map.copyOf(held);
            spread = Map.copyOf(spread);
        }

        public Result(List<QueueInstance> queues, List<CellJob> jobs) {
            this(queues, jobs, Map.of(), Map.of());
        }

        /**
         * What each host's running jobs hold, the GPUs of a spread job on the host of its master task
         * ({@code masters}, from {@link QstatXml#masters}); a spread job with no master there has ended
         * meanwhile and holds nothing.
         */
        public Map<String, QhostXml.Held> held(Map<String, String> masters) {
            Map<String, QhostXml.Held> all = new HashMap<>(held);
            spread.forEach((job, gpus) -> {
                String host = masters.get(job);
                if (host != null) {
                    all.merge(host, new QhostXml.Held(0, gpus), QhostXml.Held::plus);
                }
            });
            return Map.copyOf(all);
        }
    }

    private QstatXml() {
    }

    /** @param koala tells KOALA's pilots from local users' jobs */
    public static Result parse(String xml, Predicate<CellJob> koala) {
        Document doc = SgeXml.parse(xml, "qstat");
        Element root = doc.getDocumentElement();
        List<QueueInstance> queues = new ArrayList<>();
        List<CellJob> jobs = new ArrayList<>();
        Map<String, QhostXml.Held> held = new HashMap<>();
        Map<String, Integer> gpus = new HashMap<>();
        Map<String, Set<String>> hostsOf = new HashMap<>();
        Element queueInfo = SgeXml.child(root, "queue_info");
        if (queueInfo != null) {
            for (Element q : SgeXml.children(queueInfo, "Queue-List")) {
                QueueInstance queue = queue(q);
                queues.add(queue);
                for (Element j : SgeXml.children(q, "job_list")) {
                    CellJob job = job(j, queue.name(), koala);
                    jobs.add(job);
                    QhostXml.Held entry = held(j);
                    held.merge(queue.host(), new QhostXml.Held(entry.memoryMib(), 0), QhostXml.Held::plus);
                    if (entry.gpus() > 0) {
                        gpus.put(job.id(), entry.gpus());
                        hostsOf.computeIfAbsent(job.id(), k -> new TreeSet<>()).add(queue.host());
                    }
                }
            }
        }
        // a job asking gpu is listed in each queue instance it has slots in, but SGE books the GPUs once
        Map<String, Integer> spread = new HashMap<>();
        hostsOf.forEach((job, hosts) -> {
            if (hosts.size() == 1) {
                held.merge(hosts.iterator().next(), new QhostXml.Held(0, gpus.get(job)), QhostXml.Held::plus);
            } else {
                spread.put(job, gpus.get(job));
            }
        });
        Element pending = SgeXml.child(root, "job_info");
        if (pending != null) {
            SgeXml.children(pending, "job_list").forEach(j -> jobs.add(job(j, null, koala)));
        }
        return new Result(queues, jobs, held, spread);
    }

    /**
     * The host of each running job's master task, from {@code qstat -f -r -g t -xml -u '*'}, which
     * lists each task of a parallel job with {@code <master>MASTER</master>} or {@code SLAVE}.
     */
    public static Map<String, String> masters(String xml) {
        Element root = SgeXml.parse(xml, "qstat").getDocumentElement();
        Map<String, String> masters = new HashMap<>();
        Element queueInfo = SgeXml.child(root, "queue_info");
        if (queueInfo != null) {
            for (Element q : SgeXml.children(queueInfo, "Queue-List")) {
                String host = queue(q).host();
                for (Element j : SgeXml.children(q, "job_list")) {
                    if ("MASTER".equals(SgeXml.text(j, "master"))) {
                        masters.put(id(j), host);
                    }
                }
            }
        }
        return masters;
    }

    /**
     * What one running job's entry in a queue instance holds: {@code h_vmem} is booked per slot (as
     * SGE books a consumable declared {@code YES}; {@code slots} is the job's slots in this queue
     * instance), {@code gpu} once per job ({@code JOB}), which is how the testbed and the admin guide
     * declare them.
     */
    static QhostXml.Held held(Element job) {
        long memory = 0;
        int gpus = 0;
        int slots = SgeXml.integer(job, "slots", 1);
        for (Element r : SgeXml.children(job, "hard_request")) {
            String name = r.getAttribute("name");
            String value = r.getTextContent().trim();
            if (name.equals(HostResources.MEMORY_COMPLEX) && SgeMemory.mib(value) != null) {
                memory += SgeMemory.mib(value) * slots;
            } else if (name.equals(HostResources.GPU_COMPLEX)) {
                gpus += (int) Double.parseDouble(value);
            }
        }
        return new QhostXml.Held(memory, gpus);
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

    /** A job's id, an array job's task with its number ({@code id.task}). */
    private static String id(Element j) {
        String id = SgeXml.text(j, "JB_job_number");
        String tasks = SgeXml.text(j, "tasks");
        return tasks != null && !tasks.isEmpty() ? id + "." + tasks : id;
    }

    private static CellJob job(Element j, String queue, Predicate<CellJob> koala) {
        String id = id(j);
        String time = queue != null ? SgeXml.text(j, "JAT_start_time") : SgeXml.text(j, "JB_submission_time");
        CellJob job = new CellJob(id, SgeXml.text(j, "JB_name"), SgeXml.text(j, "JB_owner"), SgeXml.text(j, "state"),
                SgeXml.integer(j, "slots", 1), queue, time == null ? null : LocalDateTime.parse(time), false);
        return koala.test(job) ? new CellJob(job.id(), job.name(), job.owner(), job.state(), job.slots(), job.queue(),
                job.since(), true) : job;
    }
}
