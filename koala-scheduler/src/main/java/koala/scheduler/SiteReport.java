package koala.scheduler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.SiteResources;
import koala.api.scheduler.SiteStatus;
import koala.placement.GridView;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.kis.SiteInfo;

/**
 * Every site as {@code koala sites} shows it: the cell's snapshot beside KOALA's own books, the
 * cores, memory and GPUs its hosts report, in all and free ({@link SiteResources}), and the resource
 * manager its agent drives.
 */
final class SiteReport {
    private SiteReport() {
    }

    static List<SiteStatus> of(List<String> siteNames, koala.scheduler.kis.SiteInfos kis, Collection<Job> jobs, GridView view) {
        Map<String, Integer> claiming = new HashMap<>();
        jobs.forEach(j -> j.heldNodes().stream().filter(n -> n.state() == NodeState.SUBMITTED)
                .forEach(n -> claiming.merge(n.site(), 1, Integer::sum)));
        List<SiteStatus> out = new ArrayList<>();
        for (String site : siteNames) {
            Optional<SiteInfo> info = kis.site(site);
            int idle = view.sites().stream().filter(v -> v.site().equals(site)).mapToInt(v -> v.idleNodes()).sum();
            String manager = info.map(SiteInfo::health).map(koala.api.site.AgentHealth::drmSystem)
                    .filter(m -> !m.isBlank()).orElse(null);
            out.add(info.filter(SiteInfo::up).map(i -> new SiteStatus(site, i.snapshot().slotsTotal(), idle,
                    i.snapshot().slotsUsedByKoala(), i.snapshot().slotsUsedByOthers(), claiming.getOrDefault(site, 0),
                    "UP", null, i.seenAt(), SiteResources.of(i.snapshot().hosts()), manager))
                    .orElseGet(() -> new SiteStatus(site, 0, 0, 0, 0, claiming.getOrDefault(site, 0), "DOWN",
                            info.map(i -> i.error() != null ? i.error() : i.health().reason()).orElse("not polled yet"),
                            info.map(SiteInfo::seenAt).orElse(null), null, manager)));
        }
        return out;
    }
}
