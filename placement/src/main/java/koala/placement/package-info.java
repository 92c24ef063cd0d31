/**
 * KOALA's placement policies, as pure decision code: given a job ({@link koala.placement.JobNeed} of
 * {@link koala.placement.ComponentNeed}s) and the grid as placement sees it
 * ({@link koala.placement.GridView} of {@link koala.placement.SiteView}s, with
 * {@link koala.placement.FileLocations}), a {@link koala.placement.PlacementPolicy} returns a
 * {@link koala.placement.PlacementDecision}: the {@link koala.placement.Assignment}s, or why not as
 * {@link koala.placement.PlacementReason}s a user reads in {@code koala status}. No I/O, no clock.
 *
 * <p>{@code GreedyPolicy} holds the rules every policy shares (fixed components
 * first, largest first, the tie-break); each policy only says which site a component goes to:
 * {@link koala.placement.WorstFit} (the default), {@link koala.placement.CloseToFiles},
 * {@link koala.placement.ClusterMinimization} and {@link koala.placement.FlexibleClusterMinimization}
 * (the default for flexible jobs, and how the scheduler places a runner's grows).
 * {@link koala.placement.PlacementPolicies} names them, as JDFs and {@code scheduler.placement} do.
 *
 * <p>Where a site's view lists its hosts with their {@link koala.placement.Resources} (a
 * {@link koala.placement.HostView} each), every policy places by resources: a component's node
 * ({@link koala.placement.ComponentNeed#perNode}) goes only to a host it fits, the assignment names
 * the hosts, and sites are compared in nodes of the request they can hold. A view without hosts is
 * placed in nodes, as before.
 */
package koala.placement;
