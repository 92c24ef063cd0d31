package koala.arbitration;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.provisioning.NaturalOrder;
import koala.provisioning.Texts;

/**
 * Performance-based sharing, after KOALA-F: the instances report a figure — a slowdown, 1 when
 * served as if alone ({@link Tenant#performance()}) — and nodes go from the instances doing best
 * to the one doing worse, balancing the figure rather than node counts. When an instance asks for
 * more than the free nodes, it takes from every instance whose figure is lower than its own by
 * more than the margin ({@code figure × (1 + margin) < its figure}), the best first (ties by id),
 * as many as it asks, down to each one's floor. An instance that reports nothing counts as 1: it
 * gives to those doing worse and takes from nobody. Weights play no part; minimum shares do.
 */
final class PerformancePolicy implements SharePolicy {
    private final double margin;

    PerformancePolicy(ArbitrationSettings settings) {
        this.margin = settings.margin();
    }

    @Override
    public ShareRule rule() {
        return ShareRule.PERFORMANCE;
    }

    @Override
    public Map<String, Share> shares(ShareView view) {
        Map<String, Share> shares = new LinkedHashMap<>();
        view.standings().forEach(s -> shares.put(s.id(), Share.none(s.id(), figure(s.tenant()))));
        return shares;
    }

    @Override
    public Plan plan(ShareView view, Map<String, Share> shares, ShareView.Standing taker, int holds, int shortfall) {
        double own = taker.tenant().figure();
        List<Donation> donations = view.standings().stream()
                .filter(s -> !s.id().equals(taker.id()) && s.tenant().figure() * (1 + margin) < own)
                .sorted(Comparator.comparingDouble((ShareView.Standing s) -> s.tenant().figure())
                        .thenComparing(ShareView.Standing::id, NaturalOrder.IDS))
                .map(s -> new Donation(s.id(), Integer.MAX_VALUE)).toList();
        if (donations.isEmpty()) {
            double best = view.standings().stream().filter(s -> !s.id().equals(taker.id()))
                    .mapToDouble(s -> s.tenant().figure()).min().orElse(own);
            return Plan.none(new ShareReason(ShareReason.Kind.NO_BETTER_OFF, "no instance does better by the margin "
                    + Texts.percent(margin * 100) + ": its " + figure(taker.tenant()) + ", the best other "
                    + Texts.number(best)));
        }
        return new Plan(shortfall, donations, new ShareReason(ShareReason.Kind.NO_BETTER_OFF, "all asked for"));
    }

    private static String figure(Tenant t) {
        return "figure " + Texts.number(t.figure()) + (t.performance().isPresent() ? "" : " (none reported)");
    }
}
