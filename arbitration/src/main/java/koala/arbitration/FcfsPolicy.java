package koala.arbitration;

import java.util.LinkedHashMap;
import java.util.Map;
import koala.provisioning.Texts;

/** First come, first served — the grid as it was: a grow gets what is free, and nobody gives anything back. */
final class FcfsPolicy implements SharePolicy {

    @Override
    public ShareRule rule() {
        return ShareRule.FCFS;
    }

    @Override
    public Map<String, Share> shares(ShareView view) {
        Map<String, Share> shares = new LinkedHashMap<>();
        view.standings().forEach(s -> shares.put(s.id(), Share.none(s.id(), "first come, first served: holds "
                + Texts.count(s.tenant().held(), "node"))));
        return shares;
    }

    @Override
    public Plan plan(ShareView view, Map<String, Share> shares, ShareView.Standing taker, int holds, int shortfall) {
        return Plan.none(new ShareReason(ShareReason.Kind.GRID_FULL, "the grid has no free nodes, and fcfs takes nothing back"));
    }
}
