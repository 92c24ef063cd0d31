package koala.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.common.json.Json;
import koala.resourcemanager.ManagerFailure;

/**
 * The answers of {@code squeue --json} and {@code sinfo --json} (Slurm 22.05, OpenAPI v0.0.38). An answer
 * that is not JSON, or that carries Slurm's {@code errors}, is a {@link ManagerFailure} naming the command
 * and what Slurm said.
 */
public final class SlurmJson {
    /** A GPU count in a GRES string: {@code gpu:2}, {@code gres:gpu:1}, {@code gpu:a100:2(IDX:0-1)}. */
    private static final Pattern GPUS = Pattern.compile("(?:^|[,:])gpu(?::[A-Za-z][\\w.-]*)?:(\\d+)");

    private SlurmJson() {
    }

    /** Every job {@code squeue --json} lists. */
    public static List<SlurmJob> jobs(byte[] answer) throws ManagerFailure {
        List<SlurmJob> jobs = new ArrayList<>();
        for (JsonNode j : read("squeue --json", answer).path("jobs")) {
            jobs.add(new SlurmJob(j.path("job_id").asText(), j.path("name").asText(), j.path("user_name").asText(),
                    j.path("job_state").asText(), j.path("state_reason").asText(), j.path("exit_code").asInt(),
                    j.path("nodes").asText(""), j.path("batch_host").asText(""), j.path("partition").asText(""),
                    j.path("cpus").asInt(), j.path("memory_per_node").asLong(0),
                    gpus(j.path("tres_per_node").asText("")), time(j.path("submit_time")),
                    isPending(j) ? null : time(j.path("start_time")), hasEnded(j) ? time(j.path("end_time")) : null));
        }
        return jobs;
    }

    /** Every compute host {@code sinfo --json} lists. */
    public static List<SlurmNode> nodes(byte[] answer) throws ManagerFailure {
        List<SlurmNode> nodes = new ArrayList<>();
        for (JsonNode n : read("sinfo --json", answer).path("nodes")) {
            nodes.add(new SlurmNode(n.path("name").asText(), n.path("address").asText(), n.path("state").asText(),
                    texts(n.path("state_flags")), n.path("cpus").asInt(), n.path("alloc_cpus").asInt(),
                    n.path("real_memory").asLong(), n.path("alloc_memory").asLong(), gpus(n.path("gres").asText("")),
                    gpus(n.path("gres_used").asText("")), n.path("reason").asText(""), texts(n.path("partitions")),
                    n.path("architecture").asText(""), n.path("cpu_load").asLong() / 100.0, n.path("free_memory").asLong()));
        }
        return nodes;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }

    /** The GPUs a GRES string names, summed over its entries; 0 for none. */
    static int gpus(String gres) {
        int gpus = 0;
        Matcher m = GPUS.matcher(gres);
        while (m.find()) {
            gpus += Integer.parseInt(m.group(1));
        }
        return gpus;
    }

    private static JsonNode read(String command, byte[] answer) throws ManagerFailure {
        JsonNode root;
        try {
            root = Json.mapper().readTree(answer);
        } catch (IOException e) {
            throw new ManagerFailure(command + " did not answer in JSON: " + firstLine(answer));
        }
        if (root == null || !root.isObject()) {
            throw new ManagerFailure(command + " did not answer in JSON: " + firstLine(answer));
        }
        List<String> errors = new ArrayList<>();
        root.path("errors").forEach(e -> errors.add(e.path("description").asText(e.path("error").asText(e.toString()))));
        if (!errors.isEmpty()) {
            throw new ManagerFailure(command + ": " + String.join("; ", errors));
        }
        return root;
    }

    private static String firstLine(byte[] answer) {
        String text = new String(answer, java.nio.charset.StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? "(nothing)" : text.lines().findFirst().orElse(text);
    }

    private static boolean isPending(JsonNode job) {
        return job.path("job_state").asText().equals("PENDING");
    }

    /** A job that ended; a running one's {@code end_time} is when its time limit would end it. */
    private static boolean hasEnded(JsonNode job) {
        return SlurmJob.pilotState(job.path("job_state").asText(), "").isFinal();
    }

    private static Instant time(JsonNode epochSeconds) {
        return epochSeconds.isNumber() && epochSeconds.asLong() > 0 ? Instant.ofEpochSecond(epochSeconds.asLong()) : null;
    }
}
