package koala.arbitration;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * What the policy holds an instance to at one decision, for {@code koala status}: e.g. fair
 * "fair share 7 of 20 nodes (uses 12, weight 1)", static-partition "part 5 of 20 nodes (weight 1
 * of 4)", performance "figure 1.32", fcfs "first come, first served".
 *
 * @param nodes the nodes it is entitled to, when the policy counts nodes (fair, static-partition)
 */
public record Share(String tenant, OptionalInt nodes, String text) {
    public Share {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(text, "text");
    }

    static Share of(String tenant, int nodes, String text) {
        return new Share(tenant, OptionalInt.of(nodes), text);
    }

    static Share none(String tenant, String text) {
        return new Share(tenant, OptionalInt.empty(), text);
    }

    @Override
    public String toString() {
        return tenant + ": " + text;
    }
}
