package koala.estimate;

import java.util.Objects;
import koala.placement.Resources;

/**
 * One host now: what it has in all and what is free (neither KOALA nor local users hold it, nor a claim).
 */
public record HostState(String name, Resources total, Resources free) {
    public HostState {
        Objects.requireNonNull(name, "name");
        if (!total.fits(free)) {
            throw new IllegalArgumentException("host " + name + " has more free (" + free + ") than in all (" + total + ")");
        }
    }
}
