package koala.arbitration;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one decision of the {@link Arbiter} gives back.
 *
 * @param decisions what to carry out, in this order
 * @param shares    what the policy holds each instance to, by instance id in id order (for {@code koala status})
 * @param book      the arbiter's memory after this decision: pass it to the next one
 */
public record Arbitration(List<ShareDecision> decisions, Map<String, Share> shares, TakeBackBook book) {
    public Arbitration {
        decisions = List.copyOf(decisions);
        shares = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(shares));
        Objects.requireNonNull(book, "book");
    }

    /** The decisions about one instance, in order. */
    public List<ShareDecision> about(String tenant) {
        return decisions.stream().filter(d -> d.tenant().equals(tenant)).toList();
    }

    /** The decisions of one kind, in order. */
    public <T extends ShareDecision> List<T> of(Class<T> kind) {
        return decisions.stream().filter(kind::isInstance).map(kind::cast).toList();
    }
}
