package koala.fluent;

import java.util.Locale;

/**
 * The provisioning policy of the framework's worker layer, as in the provisioning module's
 * {@code PolicyKind} (not shared, so that this module depends on nothing). Only under OnDemand
 * does the master ask its runner to grow and shrink; under Static and Proactive it reports what
 * it would ask and KOALA decides alone.
 */
public enum Provisioning {
    STATIC, ONDEMAND, PROACTIVE;

    /** True when the framework, not KOALA, takes the initiative to resize. */
    public boolean frameworkAsks() {
        return this == ONDEMAND;
    }

    /** "static", "ondemand", "proactive", as the JDF names them. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
