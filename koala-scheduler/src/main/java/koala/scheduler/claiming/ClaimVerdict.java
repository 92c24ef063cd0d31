package koala.scheduler.claiming;

import java.util.List;

/** What the claiming rules say about a job whose nodes are being claimed. */
public sealed interface ClaimVerdict {
    /** Keep waiting; {@code reason} says for what. */
    record Waiting(String reason) implements ClaimVerdict {
    }

    /** Every node has arrived: the job can start. */
    record AllClaimed() implements ClaimVerdict {
    }

    /** These components' claims on these sites timed out: release them and place them again. */
    record Replace(List<Part> parts, String reason) implements ClaimVerdict {
    }

    /** Claims failed too often: release everything and queue the whole job again. */
    record Requeue(String reason) implements ClaimVerdict {
    }

    /** The nodes of one component on one site. */
    record Part(int component, String site, int nodes) {
    }
}
