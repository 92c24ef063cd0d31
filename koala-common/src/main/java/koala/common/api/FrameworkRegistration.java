package koala.common.api;

import java.util.Map;

/**
 * A runner registers its framework instance with the FrameworkJobManager, on the allocation it holds.
 *
 * @param parameters the instance's effective provisioning settings, as {@code koala config} shows them
 * @param runner     where the runner's RPC listens, for the record
 */
public record FrameworkRegistration(long allocation, String name, String jdfFile, String jdf, String policy,
                                    Map<String, String> parameters, String runner) {
}
