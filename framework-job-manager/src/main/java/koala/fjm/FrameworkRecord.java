package koala.fjm;

import java.time.Instant;
import java.util.Map;

/**
 * What the FrameworkJobManager keeps of a framework instance, beyond what its allocation says.
 *
 * @param id            the instance's id: the id of the allocation its runner holds
 * @param parameters    the effective provisioning settings, key to value as {@code koala config} shows them
 * @param masterNode    the node running the master, once known
 * @param masterAddress where clients reach the master ({@code host:port}), once known
 * @param runnerState   the runner's durable state file, from which a runner that died is restarted; null
 *                      when the runner is not supervised
 * @param runnerHost    the host the runner in force runs on: its own pid and process tell the scheduler
 *                      of that host whether it lives; any other judges it by its health route alone. Null
 *                      for one registered before hosts were kept (taken as this host's)
 * @param runnerGeneration which start of the instance's runner is in force: 1 for the one that registered
 *                      it, one more at every start of another in its place; a call from a runner of an
 *                      older one is refused ({@link FrameworkRegistry#fence}). 0: a runner registered
 *                      before generations were kept, never fenced until it is replaced
 */
public record FrameworkRecord(long id, String name, String jdfFile, String jdf, String policy,
                              Map<String, String> parameters, String runner, String masterNode, String masterAddress,
                              Instant registeredAt, String runnerState, String runnerHost, long runnerGeneration) {
    public FrameworkRecord {
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }

    /** One of a runner whose host and generation are not known (a test's, or one read from an older record). */
    public FrameworkRecord(long id, String name, String jdfFile, String jdf, String policy,
                           Map<String, String> parameters, String runner, String masterNode, String masterAddress,
                           Instant registeredAt, String runnerState) {
        this(id, name, jdfFile, jdf, policy, parameters, runner, masterNode, masterAddress, registeredAt, runnerState,
                null, 0);
    }

    public FrameworkRecord withMaster(String node, String address) {
        return new FrameworkRecord(id, name, jdfFile, jdf, policy, parameters, runner, node, address, registeredAt,
                runnerState, runnerHost, runnerGeneration);
    }

    /** The runner started in the place of the one in force, on {@code host} at {@code url}: the next generation. */
    public FrameworkRecord withRunnerReplaced(String host, String url) {
        return new FrameworkRecord(id, name, jdfFile, jdf, policy, parameters, url, masterNode, masterAddress,
                registeredAt, runnerState, host, runnerGeneration + 1);
    }
}
