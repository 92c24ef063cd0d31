package koala.scheduler.storage;

import java.util.List;
import java.util.Optional;
import koala.api.scheduler.TransitionView;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;

/**
 * A stored job with everything kept of it, as a restart reads it back ({@link Store#reload}).
 *
 * @param components an allocation's grown components, in their order; none for a job
 * @param roles      an allocation's roles (JSON), if it has any
 */
public record StoredJob(JobRecord record, List<String> components, Optional<String> roles, List<NodeClaim> nodes,
                        List<NodeSpan> spans, List<TransitionView> history) {
}
