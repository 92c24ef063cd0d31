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
 * a host's GPUs and books them to jobs by that count, so a declaration must name exactly as many
 * devices as SGE counts: one that names fewer would leave nodes SGE let onto the host waiting for a
 * device forever, one that names more is wrong about the host.
 *
 * <p>The agent reads a host's count as what is free of {@code gpu} ({@code qhost}) plus what its
 * running jobs hold ({@code qstat}), two commands a moment apart: a GPU job starting or ending between
 * them puts the count off by its GPUs for that one snapshot (seen on the testbed: fs0-n13 of
 * {@code gpu=2} read as 1 while a pilot started). So a disagreement counts only where it cannot be such
 * a skew, or once it lasts:
 * <ul>
 * <li>at the scheduler's start ({@link #checkAtStart}), on a host none of whose GPUs is held (its count
 * is then SGE's own figure), it stops the start, naming the key, the host and both figures;</li>
 * <li>after the start (a site first heard of later, a count an admin changed in SGE, a host busy at the
 * start), once {@value #LASTING} snapshots of the site in a row show it, the host is seen with no GPUs
 * ({@link #over}), so placement sends no GPU node there and no node there is handed a device, and it
 * is logged once. Nodes that hold devices keep them; until then, and once they agree again, the
 * declared devices are handed out.</li>
 * </ul>
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

    /** Snapshots in a row that must show a disagreement before it is acted on. */
    static final int LASTING = 3;

    private final Map<String, Map<String, List<Integer>>> declared;
    /** Per disagreement seen in the latest snapshots: when the last of them was taken, and how many in a row. */
    private final Map<Disagreement, Streak> streaks = new java.util.concurrent.ConcurrentHashMap<>();

    /** Lasting disagreements logged already: each is said once while it lasts. */
    private final Set<Disagreement> told = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private record Streak(java.time.Instant lastTakenAt, int snapshots) {
    }

    /** @param declared the devices declared by site, then host */
    DeclaredGpus(Map<String, Map<String, List<Integer>>> declared) {
        this.declared = Map.copyOf(declared);
    }

    /**
     * The devices of {@code host} in {@code snapshot} as {@link #over} shows it: those declared for it, 0..N-1
     * when none are declared; none where it has no GPUs (a lasting disagreement among them) or is not known.
     */
    List<Integer> devices(String site, CellSnapshot snapshot, String host) {
        Optional<HostResources> resources = snapshot.hosts().stream().filter(h -> h.name().equals(host)
                && h.resources() != null).findFirst().map(HostInfo::resources);
        if (resources.isEmpty() || resources.get().gpus() == 0) {
            return List.of();
        }
        List<Integer> named = declared.getOrDefault(site, Map.of()).get(host);
        return named == null ? resources.get().defaultGpuDevices() : named;
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
     * Stops the start when a site heard from disagrees on the devices of a host none of whose GPUs is held
     * (there the count is SGE's own): a {@link ConfigException} naming every such key, host and both
     * figures. A busy host's disagreement is left to {@link #over}; a declared host its site's agent does
     * not report is logged, not refused (its devices are used once it is seen).
     */
    void checkAtStart(Collection<String> sites, SiteInfos kis) {
        List<String> wrong = new ArrayList<>();
        for (String site : sites) {
            Optional<SiteInfo> info = kis.site(site).filter(SiteInfo::up);
            if (info.isEmpty()) {
                continue;
            }
            CellSnapshot snapshot = info.get().snapshot();
            disagreements(site, snapshot).stream().filter(d -> idle(snapshot, d.host()))
                    .forEach(d -> wrong.add(d.reason()));
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

    /** Whether none of {@code host}'s GPUs is held: its count is then what SGE says is free of them. */
    private static boolean idle(CellSnapshot snapshot, String host) {
        return snapshot.hosts().stream().anyMatch(h -> h.name().equals(host) && h.resources() != null
                && h.resources().gpusFree() == h.resources().gpus());
    }

    private SiteInfo seen(SiteInfo info) {
        if (!info.up()) {
            return info;
        }
        List<Disagreement> found = disagreements(info.site(), info.snapshot());
        streaks.keySet().removeIf(d -> d.site().equals(info.site()) && !found.contains(d));
        java.time.Instant takenAt = info.snapshot().takenAt();
        Set<String> hosts = new java.util.HashSet<>();
        for (Disagreement d : found) {
            Streak streak = streaks.compute(d, (k, s) -> s == null ? new Streak(takenAt, 1)
                    : s.lastTakenAt().equals(takenAt) ? s : new Streak(takenAt, s.snapshots() + 1));
            if (streak.snapshots() >= LASTING) {
                hosts.add(d.host());
                if (told.add(d)) {
                    LOG.warn("{} in {} snapshots in a row: KOALA hands out none of {}'s GPUs and places no GPU node "
                            + "there until they agree", d.reason(), LASTING, d.host());
                }
            }
        }
        told.removeIf(d -> !streaks.containsKey(d));
        if (hosts.isEmpty()) {
            return info;
        }
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
