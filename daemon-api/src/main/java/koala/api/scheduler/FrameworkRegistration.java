package koala.api.scheduler;

import java.util.Map;

/**
 * A runner registers its framework instance with the FrameworkJobManager, on the allocation it holds.
 *
 * @param parameters the instance's effective provisioning settings, as {@code koala config} shows them
 * @param runner     where the runner's RPC listens, for the record
 * @param runnerState the runner's durable state file, from which the scheduler restarts a runner that
 *                    died; null for a runner that is not to be restarted (one inside a test's JVM)
 * @param runnerHost  the host the runner runs on (its name); null: the scheduler's that registers it
 */
public record FrameworkRegistration(long allocation, String name, String jdfFile, String jdf, String policy,
                                    Map<String, String> parameters, String runner, String runnerState,
                                    String runnerHost) {
    public FrameworkRegistration(long allocation, String name, String jdfFile, String jdf, String policy,
                                 Map<String, String> parameters, String runner, String runnerState) {
        this(allocation, name, jdfFile, jdf, policy, parameters, runner, runnerState, null);
    }

    public FrameworkRegistration(long allocation, String name, String jdfFile, String jdf, String policy,
                                 Map<String, String> parameters, String runner) {
        this(allocation, name, jdfFile, jdf, policy, parameters, runner, null);
    }
}
