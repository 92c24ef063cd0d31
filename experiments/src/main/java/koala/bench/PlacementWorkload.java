package koala.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import koala.placement.ComponentNeed;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.SiteView;
import koala.placement.StoredFile;

/**
 * A synthetic grid and placement queue for the placement benchmark, the same for the same
 * arguments (everything is drawn from one seeded {@link Random}).
 *
 * <p>The grid: {@code sites} sites of {@value #NODES_PER_SITE} nodes, named {@code site0000}…;
 * a fifth of them nearly full (0–20 idle), the others 0–500 idle. A catalog of
 * {@value #FILES} input files of 10 MB to 20 GB, each on 1–3 sites, and a measured bandwidth
 * (10–1,000 MB/s) from each site to two others; 100 MB/s between any other pair.
 *
 * <p>The queue mixes the four job types: 40% non-fixed, 20% semi-fixed (2–4 components, some
 * pinned), 15% fixed, each with 1–4 components of 1–64 nodes, and 25% flexible (one component of
 * 1–256 nodes, as much as the largest rigid job asks in all). Of the rigid components, 40% read
 * 1–3 input files, one name in twenty not in the catalog.
 */
public record PlacementWorkload(GridView grid, List<JobNeed> jobs) {
    public static final int NODES_PER_SITE = 500;
    public static final int FILES = 500;
    public static final long SEED = 20140519L;

    public PlacementWorkload {
        jobs = List.copyOf(jobs);
    }

    /** The workload of the benchmark: {@code sites} sites and {@code jobs} queued jobs. */
    public static PlacementWorkload generate(int sites, int jobs, long seed) {
        Random random = new Random(seed);
        List<SiteView> siteViews = sites(sites, random);
        FileLocations files = files(siteViews, random);
        List<JobNeed> queue = new ArrayList<>(jobs);
        for (int i = 0; i < jobs; i++) {
            queue.add(job("job" + i, siteViews, files, random));
        }
        return new PlacementWorkload(new GridView(siteViews, files), queue);
    }

    private static List<SiteView> sites(int count, Random random) {
        List<SiteView> sites = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int idle = random.nextInt(5) == 0 ? random.nextInt(21) : random.nextInt(NODES_PER_SITE + 1);
            sites.add(new SiteView(String.format("site%04d", i), NODES_PER_SITE, idle));
        }
        return sites;
    }

    private static FileLocations files(List<SiteView> sites, Random random) {
        Map<String, StoredFile> catalog = new HashMap<>();
        for (int i = 0; i < FILES; i++) {
            long bytes = (long) (10e6 * Math.pow(2000, random.nextDouble()));
            Set<String> copies = new HashSet<>();
            for (int c = 1 + random.nextInt(3); c > 0; c--) {
                copies.add(pick(sites, random));
            }
            catalog.put(fileName(i), new StoredFile(bytes, copies));
        }
        Map<String, Double> bandwidth = new HashMap<>();
        for (SiteView from : sites) {
            for (int k = 0; k < 2; k++) {
                bandwidth.put(from.site() + "->" + pick(sites, random), 10.0 + random.nextInt(991));
            }
        }
        return new FileLocations(catalog, bandwidth, 100.0);
    }

    private static JobNeed job(String id, List<SiteView> sites, FileLocations files, Random random) {
        int kind = random.nextInt(100);
        if (kind < 25) {
            return new JobNeed(id, List.of(new ComponentNeed(0, 1 + random.nextInt(256), null, List.of())), true);
        }
        boolean semiFixed = kind < 45;
        int count = semiFixed ? 2 + random.nextInt(3) : 1 + random.nextInt(4);
        int pinnedOne = random.nextInt(count);
        List<ComponentNeed> components = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean pinned = kind >= 85 || semiFixed && (i == pinnedOne || random.nextBoolean())
                    && i != (pinnedOne + 1) % count;
            components.add(new ComponentNeed(i, 1 + random.nextInt(64), pinned ? pick(sites, random) : null,
                    inputFiles(random)));
        }
        return new JobNeed(id, components, false);
    }

    private static List<String> inputFiles(Random random) {
        if (random.nextInt(10) >= 4) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            names.add(random.nextInt(20) == 0 ? "scratch-" + random.nextInt(1000) : fileName(random.nextInt(FILES)));
        }
        return names;
    }

    private static String pick(List<SiteView> sites, Random random) {
        return sites.get(random.nextInt(sites.size())).site();
    }

    private static String fileName(int i) {
        return "input-" + i + ".dat";
    }
}
