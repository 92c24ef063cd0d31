package koala.api.scheduler;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One node KOALA holds or is claiming for a job: a pilot job on a site.
 *
 * @param id         {@code <job>.<component>.<rank>}
 * @param state      SUBMITTED, ARRIVED (its launcher called back), RUNNING, EXITED, RELEASED, LOST
 * @param pilot      the SGE job id of its pilot, once submitted
 * @param exitStatus the component process's exit status, once EXITED
 * @param gpus       the GPU devices of its host given to it ({@code CUDA_VISIBLE_DEVICES}), once given;
 *                   left out of the JSON before
 */
public record NodeView(String id, int component, int rank, String site, String state, String pilot, String host,
                       Integer exitStatus, String role,
                       @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> gpus) {

    /** A node given no GPU device (yet). */
    public NodeView(String id, int component, int rank, String site, String state, String pilot, String host,
                    Integer exitStatus, String role) {
        this(id, component, rank, site, state, pilot, host, exitStatus, role, null);
    }
}
