package koala.api.scheduler;

/**
 * One node KOALA holds or is claiming for a job: a pilot job on a site.
 *
 * @param id         {@code <job>.<component>.<rank>}
 * @param state      SUBMITTED, ARRIVED (its launcher called back), RUNNING, EXITED, RELEASED, LOST
 * @param pilot      the SGE job id of its pilot, once submitted
 * @param exitStatus the component process's exit status, once EXITED
 */
public record NodeView(String id, int component, int rank, String site, String state, String pilot, String host,
                       Integer exitStatus, String role) {
}
