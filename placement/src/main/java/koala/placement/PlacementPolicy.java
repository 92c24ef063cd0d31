package koala.placement;

/**
 * A placement policy: pure decision code, given a job and a view of the grid, no I/O and no clock.
 * Fixed components go to their site whatever the policy; the policy chooses sites for the others.
 */
public interface PlacementPolicy {
    /** Short name used in the JDF ({@code placement = worst-fit}) and the configuration. */
    String name();

    PlacementDecision place(JobNeed job, GridView grid);
}
