package koala.scheduler.storage;

import java.util.List;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;

/** A job's nodes (one pilot each) and their spans (each pilot's hold of its node, for accounting). */
public interface NodeStore {
    void saveNode(NodeClaim node);

    List<NodeClaim> nodes(long job);

    /** A node's span (one pilot's hold of its node, for accounting), as it is now. */
    void saveSpan(NodeSpan span);

    /** A job's spans, by node and attempt. */
    List<NodeSpan> spans(long job);
}
