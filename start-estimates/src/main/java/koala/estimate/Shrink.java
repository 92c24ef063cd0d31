package koala.estimate;

import java.time.Instant;
import java.util.Objects;

/**
 * Idle nodes of a framework instance's allocation that come back at {@code at}: now plus what is left of
 * their {@code t_idle}. Nodes of an allocation that no shrink names stay held past every estimate.
 *
 * @param instance the framework instance, as reasons name it
 */
public record Shrink(String instance, Hold hold, Instant at) {
    public Shrink {
        Objects.requireNonNull(instance, "instance");
        Objects.requireNonNull(hold, "hold");
        Objects.requireNonNull(at, "at");
    }
}
