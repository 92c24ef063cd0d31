package koala.arbitration;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.provisioning.NaturalOrder;
import koala.provisioning.Texts;

/**
 * Weighted max-min fair shares of nodes ({@link WaterFilling}): each instance's demand is what it
 * uses or wants — busy and starting workers, nodes owed to it, what it asks for now, and with
 * {@code queuedDemand} what its queued work would use; idle workers are not demand — its weight its {@code weight} and its floor its {@code minShare}. Free nodes go
 * to whoever asks (the policy is work-conserving); when they do not suffice, an instance below its
 * share takes from the instances above theirs, the one furthest above first (ties by id), each
 * down to its share, never below its floor. With one resource this is Dominant Resource Fairness.
 */
final class FairPolicy implements SharePolicy {

    @Override
    public ShareRule rule() {
        return ShareRule.FAIR;
    }

    @Override
    public Map<String, Share> shares(ShareView view) {
        List<WaterFilling.Claim> claims = view.standings().stream().map(s -> new WaterFilling.Claim(s.id(), s.demand(),
                s.tenant().weight(), s.tenant().minShare())).toList();
        Map<String, Integer> fair = WaterFilling.fill(view.capacity(), claims).shares();
        Map<String, Share> shares = new LinkedHashMap<>();
        for (ShareView.Standing s : view.standings()) {
            shares.put(s.id(), Share.of(s.id(), fair.get(s.id()), "fair share " + fair.get(s.id()) + " of "
                    + view.capacity() + " nodes (demand " + s.demand() + ", weight " + Texts.number(s.tenant().weight())
                    + (s.tenant().minShare() > 0 ? ", minShare " + s.tenant().minShare() : "") + counts(s.tenant()) + ")"));
        }
        return shares;
    }

    @Override
    public Plan plan(ShareView view, Map<String, Share> shares, ShareView.Standing taker, int holds, int shortfall) {
        int entitled = Math.max(0, share(shares, taker.id()) - holds);
        ShareReason limit = new ShareReason(ShareReason.Kind.AT_SHARE, "its " + shares.get(taker.id()).text()
                + (entitled == 0 ? " is reached (holds " + holds + ")" : " leaves room for " + entitled));
        List<Donation> donations = new ArrayList<>();
        for (ShareView.Standing s : view.standings()) {
            int over = s.alloc() - Math.max(share(shares, s.id()), s.floor());
            if (!s.id().equals(taker.id()) && over > 0) {
                donations.add(new Donation(s.id(), over));
            }
        }
        donations.sort(Comparator.comparingInt((Donation d) -> -d.upTo()).thenComparing(Donation::donor, NaturalOrder.IDS));
        return new Plan(Math.min(entitled, shortfall), donations, limit);
    }

    /** How a worker larger than a node counts, said beside its share. */
    static String counts(Tenant t) {
        return t.size() == 1 ? "" : ", a worker counts " + t.size();
    }

    private static int share(Map<String, Share> shares, String id) {
        return shares.get(id).nodes().orElseThrow();
    }
}
