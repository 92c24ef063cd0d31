package koala.estimate;

import java.util.Objects;
import koala.placement.Resources;

/**
 * Resources some work holds on one host of one site.
 *
 * @param site the site's name
 * @param host the host's name on that site
 * @param held what it holds there (for today's one-core nodes, {@code n} cores)
 */
public record Hold(String site, String host, Resources held) {
    public Hold {
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(held, "held");
    }
}
