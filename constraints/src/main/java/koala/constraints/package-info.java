/**
 * Placement constraints over tags and node groups, in the terms of Medea (Garefalakis, Karanasos,
 * Pietzuch, Suresh, Rao: <i>Medea: Scheduling of Long Running Applications in Shared Production
 * Clusters</i>, EuroSys 2018), as pure decision code: no I/O, no threads, no clock.
 *
 * <ul>
 *   <li>{@link koala.constraints.Tags}: what a container carries (role, instance, owner, user tags);</li>
 *   <li>{@link koala.constraints.Group}: host, site, network and admin-declared kinds (rack, upgrade
 *       domain); each {@link koala.constraints.Node} has a value per kind;</li>
 *   <li>{@link koala.constraints.Constraint}: {@code Affinity}, {@code AntiAffinity},
 *       {@code Cardinality} of subject tags to target tags over a group kind, hard or soft;</li>
 *   <li>{@link koala.constraints.ClusterState}: nodes, running containers and the constraints in force,
 *       kept up to date by its owner;</li>
 *   <li>{@link koala.constraints.Placer}: a {@link koala.constraints.Request} (a grow, a deployment) or a
 *       batch of them to a sealed {@link koala.constraints.ConstraintDecision}: {@code Placed} (a node per
 *       container, soft breaks listed as {@link koala.constraints.Violation}s) or {@code Waiting}
 *       ({@link koala.constraints.ConstraintReason}s naming the hard constraint and how many nodes it rules out);</li>
 *   <li>{@link koala.constraints.Audit}: a whole state checked from scratch.</li>
 * </ul>
 * As in Fenzo, a hard constraint is a yes/no with a reason and a soft one a score (here the number
 * broken), kept apart; ties are broken by node name.
 */
package koala.constraints;
