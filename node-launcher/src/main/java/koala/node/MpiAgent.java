package koala.node;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.http.ApiException;
import koala.http.PlainJsonClient;

/**
 * Open MPI's launch agent on the first node of an MPI job ({@code plm_rsh_agent}): called as
 * {@code koala-rsh HOST COMMAND...}, it asks the scheduler to have the job's node on HOST run
 * COMMAND (an Open MPI daemon), authenticated with this node's token, and exits 0 once the scheduler
 * has handed it on; the daemon then calls back to {@code mpirun} itself. Reads
 * {@code KOALA_SCHEDULER_URL}, {@code KOALA_NODE_ID} and {@code KOALA_NODE_TOKEN}, which the
 * launcher gives {@code mpirun}.
 */
public final class MpiAgent {
    static final String SCHEDULER = "KOALA_SCHEDULER_URL";
    static final String NODE = "KOALA_NODE_ID";
    static final String TOKEN = "KOALA_NODE_TOKEN";

    private MpiAgent() {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("koala-rsh: usage: koala-rsh HOST COMMAND... (Open MPI's launch agent)");
            System.exit(2);
        }
        Map<String, String> env = System.getenv();
        try {
            String node = start(env, args[0], Arrays.asList(args).subList(1, args.length));
            System.err.println("[koala-rsh] daemon for " + args[0] + " handed to node " + node);
            System.exit(0);
        } catch (ApiException e) {
            System.err.println("koala-rsh: cannot start the daemon on " + args[0] + ": " + e.getMessage());
            System.exit(1);
        }
    }

    static String start(Map<String, String> env, String host, List<String> command) {
        PlainJsonClient scheduler = new PlainJsonClient(URI.create(env.get(SCHEDULER)), Duration.ofSeconds(30), Map.of());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("token", env.get(TOKEN));
        body.put("host", host);
        body.put("command", command);
        Map<String, Object> answer = scheduler.call("POST", "/nodes/" + env.get(NODE) + "/mpi", body);
        return String.valueOf(answer.get("node"));
    }
}
