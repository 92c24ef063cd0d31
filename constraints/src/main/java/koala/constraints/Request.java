package koala.constraints;

import java.util.List;

/**
 * What to place at once, all or nothing: an instance's initial deployment (its master, orchestrator
 * and first workers) or one grow (its new workers). {@code constraints} are the ones the request
 * brings; those of what already runs are in the {@link ClusterState} and hold as well. A request's
 * constraints are about its own containers: their subject tags name the request's instance (or its
 * owner...), so that no running container is their subject yet; running subjects are not checked
 * again when a constraint comes in force.
 */
public record Request(String id, List<Ask> asks, List<Constraint> constraints) {
    public Request {
        asks = List.copyOf(asks);
        constraints = List.copyOf(constraints);
    }
}
