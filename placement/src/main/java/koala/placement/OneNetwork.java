package koala.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Places a job whose nodes must all reach each other (one MPI world): every component on sites of
 * one network. Sites are grouped by the network their nodes are on; the policy places the job on
 * each network's sites alone, the network with the most idle nodes first (ties by the network's
 * name), and the first placement found is the answer. A component pinned to a site leaves only that
 * site's network. When no network will do, the reasons say, network by network, what stood in the
 * way; the job may wait for nodes to come free only if some network could ever hold it.
 */
public final class OneNetwork implements PlacementPolicy {
    private final PlacementPolicy policy;
    private final Function<String, String> networkOf;

    /** @param networkOf the network a site's nodes are on */
    public OneNetwork(PlacementPolicy policy, Function<String, String> networkOf) {
        this.policy = policy;
        this.networkOf = networkOf;
    }

    @Override
    public String name() {
        return policy.name();
    }

    @Override
    public PlacementDecision place(JobNeed job, GridView grid) {
        Map<String, List<SiteView>> networks = new LinkedHashMap<>();
        grid.sites().stream().sorted(Comparator.comparing(SiteView::site))
                .forEach(s -> networks.computeIfAbsent(networkOf.apply(s.site()), n -> new ArrayList<>()).add(s));
        List<String> pinned = job.components().stream().map(ComponentNeed::fixedSite)
                .filter(java.util.Objects::nonNull).distinct().toList();
        List<String> pinnedNetworks = pinned.stream().map(networkOf).distinct().toList();
        if (pinnedNetworks.size() > 1) {
            return new PlacementDecision.NotPlaced(List.of(PlacementReason.job(PlacementReason.Kind.NEVER_FITS, "its components are pinned to "
                    + String.join(", ", pinned) + ", on different networks (" + String.join(", ", pinnedNetworks)
                    + "): the nodes of one MPI world must reach each other")));
        }
        List<PlacementReason> reasons = new ArrayList<>();
        boolean mayFit = false;
        for (Map.Entry<String, List<SiteView>> network : byIdle(networks)) {
            String label = "on network " + network.getKey() + " (" + network.getValue().stream().map(SiteView::site)
                    .collect(Collectors.joining(", ")) + ")";
            if (!pinnedNetworks.isEmpty() && !pinnedNetworks.get(0).equals(network.getKey())) {
                continue;
            }
            PlacementDecision d = policy.place(job, new GridView(network.getValue(), grid.files()));
            if (d instanceof PlacementDecision.Placed) {
                return d;
            }
            List<PlacementReason> why = ((PlacementDecision.NotPlaced) d).reasons();
            mayFit |= why.stream().allMatch(r -> r.kind() == PlacementReason.Kind.NOT_ENOUGH_IDLE);
            why.forEach(r -> reasons.add(new PlacementReason(r.component(), r.kind(), label + ": " + r.text())));
        }
        if (reasons.isEmpty()) {
            return policy.place(job, new GridView(List.of(), grid.files()));
        }
        String note = "the nodes of one MPI world must reach each other, so its components stay on one network";
        reasons.add(0, PlacementReason.job(mayFit ? PlacementReason.Kind.NOT_ENOUGH_IDLE : PlacementReason.Kind.NEVER_FITS, note));
        return new PlacementDecision.NotPlaced(reasons);
    }

    private static List<Map.Entry<String, List<SiteView>>> byIdle(Map<String, List<SiteView>> networks) {
        return networks.entrySet().stream().sorted(Comparator.<Map.Entry<String, List<SiteView>>>comparingInt(
                e -> -e.getValue().stream().mapToInt(SiteView::idleNodes).sum()).thenComparing(Map.Entry::getKey))
                .toList();
    }
}
