package koala.scheduler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import koala.api.site.CellSnapshot;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;
import koala.grid.ConfigException;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.kis.SiteInfos;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Which GPU devices each host has for KOALA's nodes: the indices the admin declared for it
 * ({@code site.S.gpuDevices.H = 2,5}), else 0..N-1 for SGE's {@code complex_values gpu=N}. SGE counts
 * a host's GPUs and KOALA hands out devices by that count, so a declaration must name exactly as many
 * devices as SGE counts; one that does not could hand a node a device that is not there.
 *
 * <p>A disagreement seen when the scheduler starts stops the start ({@link #checkAtStart}), naming the
 * key, the host and both figures. One seen later (a site first heard of after the start, a count an
 * admin changed in SGE) cannot stop anything: while it lasts the host is seen with no GPUs
 * ({@link #over}), so placement sends no GPU node there and no node there is handed a device, and it is
 * logged once. Nodes that hold devices keep them.
 */
final class DeclaredGpus {
    private static final Logger LOG = LogManager.getLogger(DeclaredGpus.class);

    /** A host whose declared devices SGE's count does not match. */
    record Disagreement(String site, String host, List<Integer> declared, int counted) {
        String key() {
            return "site." + site + ".gpuDevices." + host;
        }

        /** What is wrong, with the key, the host and both figures. */
        String reason() {
            return key() + " = " + declared.stream().map(String::valueOf).collect(Collectors.joining(","))
                    + " names " + declared.size() + " GPU device(s), but SGE counts " + counted + " on " + host
                    + " (complex_values gpu=" + counted + ")";
        }
    }

    private final Map<String, Map<String, List<Integer>>> declared;
    /** Disagreements logged already, so that each is said once while it lasts. */
    private final Set<Disagreement> told = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** @param declared the devices declared by site, then host */
    DeclaredGpus(Map<String, Map<String, List<Integer>>> declared) {
        this.declared = Map.copyOf(declared);
    }

    /**
     * The devices of {@code host} in {@code snapshot}: those declared for it when SGE counts as many, 0..N-1
     * when none are declared; none where it has no GPUs, a declaration disagrees, or the host is not known.
     */
    List<Integer> devices(String site, CellSnapshot snapshot, String host) {
        Optional<HostResources> resources = snapshot.hosts().stream().filter(h -> h.name().equals(host)
                && h.resources() != null).findFirst().map(HostInfo::resources);
        if (resources.isEmpty()) {
            return List.of();
        }
        List<Integer> named = declared.getOrDefault(site, Map.of()).get(host);
        if (named == null) {
            return resources.get().defaultGpuDevices();
        }
        return named.size() == resources.get().gpus() ? named : List.of();
    }

    /** The hosts of {@code snapshot} whose declared devices SGE's count does not match, by host name. */
    List<Disagreement> disagreements(String site, CellSnapshot snapshot) {
        Map<String, List<Integer>> hosts = declared.getOrDefault(site, Map.of());
        if (hosts.isEmpty()) {
            return List.of();
        }
        List<Disagreement> found = new ArrayList<>();
        for (HostInfo h : snapshot.hosts()) {
            List<Integer> named = hosts.get(h.name());
            if (named != null && h.resources() != null && named.size() != h.resources().gpus()) {
                found.add(new Disagreement(site, h.name(), named, h.resources().gpus()));
            }
        }
        return found;
    }

    /**
     * Stops the start when a site heard from disagrees on a host's devices: a {@link ConfigException}
     * naming every such key, host and both figures. A declared host its site's agent does not report is
     * logged, not refused (its devices are used once it is seen, if they agree).
     */
    void checkAtStart(Collection<String> sites, SiteInfos kis) {
        List<String> wrong = new ArrayList<>();
        for (String site : sites) {
            Optional<SiteInfo> info = kis.site(site).filter(SiteInfo::up);
            if (info.isEmpty()) {
                continue;
            }
            disagreements(site, info.get().snapshot()).forEach(d -> wrong.add(d.reason()));
            declared.getOrDefault(site, Map.of()).keySet().stream()
                    .filter(host -> info.get().snapshot().hosts().stream().noneMatch(h -> h.name().equals(host)))
                    .forEach(host -> LOG.warn("site.{}.gpuDevices.{}: site {} has no host {}; its devices are used once "
                            + "it is seen", site, host, site, host));
        }
        if (!wrong.isEmpty()) {
            throw new ConfigException(String.join("; ", wrong) + ": declare as many devices as SGE counts on the host "
                    + "(or correct its gpu complex in SGE), so that no node is handed a device that is not there");
        }
    }

    /**
     * {@code kis} as placement and the sites' views must see it: a host whose declaration disagrees with
     * SGE's count has no GPUs (each disagreement logged once).
     */
    SiteInfos over(SiteInfos kis) {
        if (declared.isEmpty()) {
            return kis;
        }
        return site -> kis.site(site).map(this::seen);
    }

    private SiteInfo seen(SiteInfo info) {
        if (!info.up()) {
            return info;
        }
        List<Disagreement> found = disagreements(info.site(), info.snapshot());
        told.removeIf(d -> d.site().equals(info.site()) && !found.contains(d));
        if (found.isEmpty()) {
            return info;
        }
        found.stream().filter(told::add).forEach(d -> LOG.warn("{}: KOALA hands out none of {}'s GPUs and places no "
                + "GPU node there until they agree", d.reason(), d.host()));
        Set<String> hosts = found.stream().map(Disagreement::host).collect(Collectors.toSet());
        List<HostInfo> corrected = info.snapshot().hosts().stream().map(h -> hosts.contains(h.name()) ? withoutGpus(h) : h)
                .toList();
        CellSnapshot s = info.snapshot();
        return new SiteInfo(info.site(), info.health(), new CellSnapshot(s.site(), s.takenAt(), corrected, s.queues(),
                s.jobs()), info.error(), info.seenAt());
    }

    private static HostInfo withoutGpus(HostInfo h) {
        HostResources r = h.resources();
        return new HostInfo(h.name(), h.arch(), h.processors(), h.loadAvg(), h.memTotal(), h.memUsed(),
                new HostResources(r.cores(), r.coresFree(), r.memoryMib(), r.memoryFreeMib(), r.memory(), 0, 0));
    }
}
