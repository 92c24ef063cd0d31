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
 */
public record FrameworkRecord(long id, String name, String jdfFile, String jdf, String policy,
                              Map<String, String> parameters, String runner, String masterNode, String masterAddress,
                              Instant registeredAt, String runnerState) {
    public FrameworkRecord {
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }

    public FrameworkRecord withMaster(String node, String address) {
        return new FrameworkRecord(id, name, jdfFile, jdf, policy, parameters, runner, node, address, registeredAt,
                runnerState);
    }
}
