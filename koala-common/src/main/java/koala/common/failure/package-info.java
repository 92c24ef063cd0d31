/**
 * The domain's failures: {@link koala.common.failure.Failure} and its subclasses, thrown by domain
 * code (the scheduler's books, the site agent, the framework registry, the runner, the master) and
 * turned into HTTP only at the edge, by {@code koala.http.FailureStatus}.
 */
package koala.common.failure;
