package koala.runner;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerClient;
import koala.api.scheduler.GrowRequest;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.jdf.NodeResources;

/**
 * Deploys entities (the paper's Deployd): each role's command from the JDF, started on new nodes
 * by the node launcher each pilot runs, which reports back to this runner. Its standard output and
 * error go where its component's {@code stdout} and {@code stderr} say (appended to, on its node:
 * every entity of the role into the same file), else into its pilot's. Every entity is told:
 * <pre>
 * KOALA_INSTANCE                        the instance id (for the FJM and {@code koala framework ID})
 * KOALA_ROLE                            master, orchestrator or worker
 * KOALA_MASTER                          the master's host:port (not for the master itself)
 * KOALA_RUNNER_URL, KOALA_RUNNER_TOKEN  the runner's RPC and the instance's secret when the entity was asked for
 *                                       (the runner rotates it: the file in KOALA_RUNNER_TOKEN_FILE, which the
 *                                       entity's launcher adds and keeps up to date, holds the one in force)
 * KOALA_DEVICE_TOKEN                    a secret of the instance's entities alone (its clients get only
 *                                       the instance's secret): how workers prove to the master they are its
 * KOALA_NODE_ID, KOALA_SITE             its node (from the scheduler)
 * KOALA_ENTITY_HOST, KOALA_ENTITY_PORT  its host, and a free port there (the master listens on it)
 * </pre>
 * Each grow asks, for every node, what its role's component asks per node ({@code cores},
 * {@code memory}, {@code gpus}): the scheduler places the nodes on hosts where that fits and claims it.
 * A role that asks nothing sends nothing (one core, as a node always was).
 */
final class Deployd {
    private final JobDescription jdf;
    private final String runnerUrl;
    private final InstanceSecrets secrets;
    private final String deviceToken;
    private long instance;
    private String master;

    Deployd(JobDescription jdf, String runnerUrl, String token, String deviceToken) {
        this(jdf, runnerUrl, new InstanceSecrets(token), deviceToken);
    }

    Deployd(JobDescription jdf, String runnerUrl, InstanceSecrets secrets, String deviceToken) {
        this.jdf = jdf;
        this.runnerUrl = runnerUrl;
        this.secrets = secrets;
        this.deviceToken = deviceToken;
    }

    InstanceSecrets secrets() {
        return secrets;
    }


    void instance(long id) {
        this.instance = id;
    }

    void master(String address) {
        this.master = address;
    }

    /** How many of {@code role} the JDF starts with. */
    int initial(String role) {
        return jdf.components().stream().filter(c -> role.equals(c.role())).mapToInt(ComponentSpec::count).sum();
    }

    GrowRequest request(String role, int nodes, String reason) {
        ComponentSpec spec = spec(role);
        Map<String, String> env = new HashMap<>(spec.environment());
        env.put("KOALA_INSTANCE", Long.toString(instance));
        env.put("KOALA_ROLE", role);
        env.put(RunnerClient.URL_VARIABLE, runnerUrl);
        env.put(RunnerClient.TOKEN_VARIABLE, secrets.token());
        env.put("KOALA_DEVICE_TOKEN", deviceToken);
        if (master != null) {
            env.put("KOALA_MASTER", master);
        }
        return sized(new GrowRequest(nodes, role, spec.executable(), spec.arguments(), env, spec.cluster(), reason)
                .withOutput(spec.stdout(), spec.stderr()), spec.resources());
    }

    /**
     * What each node of {@code role} asks, for the runner's events: {@code " of 4 cores, 8G and 1 GPU"}, only
     * what differs from one core, no memory and no GPU; empty when nothing does.
     */
    String sizeOf(String role) {
        NodeResources needs = spec(role).resources();
        List<String> parts = new java.util.ArrayList<>();
        if (needs.cores() > 1) {
            parts.add(needs.cores() + " cores");
        }
        if (needs.memoryGiven()) {
            parts.add(NodeResources.size(needs.memoryMiB()));
        }
        if (needs.gpus() > 0) {
            parts.add(needs.gpus() + (needs.gpus() == 1 ? " GPU" : " GPUs"));
        }
        if (parts.isEmpty()) {
            return "";
        }
        String last = parts.remove(parts.size() - 1);
        return " of " + (parts.isEmpty() ? last : String.join(", ", parts) + " and " + last);
    }

    /** {@code grow} asking per node what {@code needs} says; nothing when it is the default. */
    static GrowRequest sized(GrowRequest grow, NodeResources needs) {
        if (needs.equals(NodeResources.DEFAULT)) {
            return grow;
        }
        return grow.withResources(needs.cores(), needs.memoryGiven() ? needs.memoryMiB() : null, needs.gpus());
    }

    private ComponentSpec spec(String role) {
        List<ComponentSpec> specs = jdf.components().stream().filter(c -> role.equals(c.role())).toList();
        if (specs.isEmpty()) {
            throw new IllegalStateException("the JDF has no " + role + " component");
        }
        return specs.get(0);
    }
}
