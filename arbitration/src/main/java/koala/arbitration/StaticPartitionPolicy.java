package koala.arbitration;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.provisioning.NaturalOrder;
import koala.provisioning.Texts;

/**
 * Static partition: each instance a fixed part of the capacity in proportion to its weight, whole
 * nodes by largest remainder (ties to the larger weight, then by id) — water-filling with every
 * demand as large as the grid. An instance never holds more than its part, even when the rest of
 * the grid is idle; it takes back only what is its own, which happens when local users' load has
 * shrunk the capacity and with it the parts, or when instances come and go.
 */
final class StaticPartitionPolicy implements SharePolicy {

    @Override
    public ShareRule rule() {
        return ShareRule.STATIC_PARTITION;
    }

    @Override
    public Map<String, Share> shares(ShareView view) {
        List<WaterFilling.Claim> claims = view.standings().stream()
                .map(s -> new WaterFilling.Claim(s.id(), view.capacity(), s.tenant().weight(), 0)).toList();
        Map<String, Integer> parts = WaterFilling.fill(view.capacity(), claims).shares();
        double weights = view.standings().stream().mapToDouble(s -> s.tenant().weight()).sum();
        Map<String, Share> shares = new LinkedHashMap<>();
        for (ShareView.Standing s : view.standings()) {
            shares.put(s.id(), Share.of(s.id(), parts.get(s.id()), "part " + parts.get(s.id()) + " of "
                    + view.capacity() + " nodes (weight " + Texts.number(s.tenant().weight()) + " of "
                    + Texts.number(weights) + FairPolicy.counts(s.tenant()) + ")"));
        }
        return shares;
    }

    @Override
    public int freeLimit(ShareView view, Map<String, Share> shares, ShareView.Standing tenant) {
        return part(shares, tenant.id());
    }

    @Override
    public Plan plan(ShareView view, Map<String, Share> shares, ShareView.Standing taker, int holds, int shortfall) {
        int entitled = Math.max(0, part(shares, taker.id()) - holds);
        ShareReason limit = new ShareReason(ShareReason.Kind.PARTITION_FULL, "its " + shares.get(taker.id()).text()
                + (entitled == 0 ? " is full" : " leaves room for " + entitled));
        List<Donation> donations = new ArrayList<>();
        for (ShareView.Standing s : view.standings()) {
            int over = s.alloc() - Math.max(part(shares, s.id()), s.floor());
            if (!s.id().equals(taker.id()) && over > 0) {
                donations.add(new Donation(s.id(), over));
            }
        }
        donations.sort(Comparator.comparingInt((Donation d) -> -d.upTo()).thenComparing(Donation::donor, NaturalOrder.IDS));
        return new Plan(Math.min(entitled, shortfall), donations, limit);
    }

    private static int part(Map<String, Share> shares, String id) {
        return shares.get(id).nodes().orElseThrow();
    }
}
