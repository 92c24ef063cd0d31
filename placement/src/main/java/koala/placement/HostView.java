package koala.placement;

import java.util.Objects;

/**
 * One host of a site as placement sees it: what it has in all and what is free now (neither KOALA
 * nor the site's local users hold it, less what KOALA is claiming right now).
 */
public record HostView(String host, Resources total, Resources free) {
    public HostView {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(free, "free");
        if (!total.fits(free)) {
            // what placement counts as ever possible on a host must bound what it counts as possible now
            throw new IllegalArgumentException("host " + host + " has more free (" + free + ") than in all (" + total + ")");
        }
    }
}
