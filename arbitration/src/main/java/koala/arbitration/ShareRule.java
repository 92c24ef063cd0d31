package koala.arbitration;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The policies that decide whom to take nodes from when the grid cannot grant a grow, by the short
 * name the grid configuration gives ({@code scheduler.arbitration.policy = fair}). The one registry:
 * each name is written here once.
 */
public enum ShareRule {
    /** Today's rule and the baseline: a grow gets what is free, nobody gives anything back. */
    FCFS("fcfs", s -> new FcfsPolicy()),
    /** A second baseline: each instance a fixed part of the capacity in proportion to its weight, never more. */
    STATIC_PARTITION("static-partition", s -> new StaticPartitionPolicy()),
    /** Weighted max-min fair shares of nodes (water-filling on demands; DRF with one resource). */
    FAIR("fair", s -> new FairPolicy()),
    /** KOALA-F: nodes move from the instance doing best to the one doing worst, by their reported figures. */
    PERFORMANCE("performance", PerformancePolicy::new);

    private final String shortName;
    private final Function<ArbitrationSettings, SharePolicy> factory;

    ShareRule(String shortName, Function<ArbitrationSettings, SharePolicy> factory) {
        this.shortName = shortName;
        this.factory = factory;
    }

    /** "fcfs", "static-partition", "fair", "performance". */
    public String shortName() {
        return shortName;
    }

    SharePolicy policy(ArbitrationSettings settings) {
        return factory.apply(settings);
    }

    /** The rule of that short name, case and surrounding blanks ignored; empty if there is none. */
    public static Optional<ShareRule> byName(String name) {
        String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(r -> r.shortName.equals(wanted)).findFirst();
    }

    /** "fcfs, static-partition, fair, performance", for messages. */
    public static String names() {
        return Arrays.stream(values()).map(ShareRule::shortName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return shortName;
    }
}
