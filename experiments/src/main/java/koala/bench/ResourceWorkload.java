package koala.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import koala.placement.ComponentNeed;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.JobNeed;
import koala.placement.Resources;
import koala.placement.SiteView;

/**
 * The placement benchmark's grid and queue by resources, the same for the same arguments (one
 * seeded {@link Random}).
 *
 * <p>The grid: {@code sites} sites of {@value #HOSTS_PER_SITE} hosts of mixed shapes, drawn per host:
 * 40% 4 cores and 8G, 30% 8 cores and 32G, 20% 16 cores, 64G and 2 GPUs, 10% 32 cores, 256G and 4
 * GPUs. A fifth of the sites nearly full (each host 0-10% free), the others with each host free from
 * nothing to all of it, dimension by dimension. No files: Close-to-Files then ranks as Worst-Fit.
 *
 * <p>The queue: the job types of {@link PlacementWorkload} (40% non-fixed, 20% semi-fixed, 15%
 * fixed, 25% flexible), each component asking per node for one of: 1 core (50%), 1 core and 4G
 * (20%), 4 cores and 16G (15%), 8 cores and 32G (10%), 4 cores, 16G and 1 GPU (5%); rigid
 * components of 1-32 nodes, flexible ones of 1-128.
 */
public record ResourceWorkload(GridView grid, List<JobNeed> jobs) {
    public static final int HOSTS_PER_SITE = 50;
    private static final Resources[] SHAPES = {gib(4, 8, 0), gib(8, 32, 0), gib(16, 64, 2), gib(32, 256, 4)};
    private static final int[] SHAPE_PERCENT = {40, 30, 20, 10};
    private static final Resources[] REQUESTS = {Resources.NODE, gib(1, 4, 0), gib(4, 16, 0), gib(8, 32, 0), gib(4, 16, 1)};
    private static final int[] REQUEST_PERCENT = {50, 20, 15, 10, 5};

    public ResourceWorkload {
        jobs = List.copyOf(jobs);
    }

    public static ResourceWorkload generate(int sites, int jobs, long seed) {
        Random random = new Random(seed);
        List<SiteView> views = new ArrayList<>(sites);
        for (int i = 0; i < sites; i++) {
            views.add(site(String.format("site%04d", i), random));
        }
        List<JobNeed> queue = new ArrayList<>(jobs);
        for (int i = 0; i < jobs; i++) {
            queue.add(job("job" + i, views, random));
        }
        return new ResourceWorkload(new GridView(views, FileLocations.NONE), queue);
    }

    private static SiteView site(String name, Random random) {
        boolean nearlyFull = random.nextInt(5) == 0;
        List<HostView> hosts = new ArrayList<>(HOSTS_PER_SITE);
        for (int h = 0; h < HOSTS_PER_SITE; h++) {
            Resources total = SHAPES[draw(SHAPE_PERCENT, random)];
            double cap = nearlyFull ? 0.1 : 1.0;
            Resources free = new Resources((int) (total.cores() * cap * random.nextDouble()),
                    (long) (total.memoryMiB() * cap * random.nextDouble()), (int) Math.round(total.gpus() * cap * random.nextDouble()));
            hosts.add(new HostView(String.format("%s-n%02d", name, h), total, free));
        }
        return new SiteView(name, hosts);
    }

    private static JobNeed job(String id, List<SiteView> sites, Random random) {
        int kind = random.nextInt(100);
        if (kind < 25) {
            return new JobNeed(id, List.of(new ComponentNeed(0, 1 + random.nextInt(128), null, List.of(), request(random))), true);
        }
        boolean semiFixed = kind < 45;
        int count = semiFixed ? 2 + random.nextInt(3) : 1 + random.nextInt(4);
        int pinnedOne = random.nextInt(count);
        List<ComponentNeed> components = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean pinned = kind >= 85 || semiFixed && (i == pinnedOne || random.nextBoolean())
                    && i != (pinnedOne + 1) % count;
            String site = pinned ? sites.get(random.nextInt(sites.size())).site() : null;
            components.add(new ComponentNeed(i, 1 + random.nextInt(32), site, List.of(), request(random)));
        }
        return new JobNeed(id, components, false);
    }

    private static Resources request(Random random) {
        return REQUESTS[draw(REQUEST_PERCENT, random)];
    }

    private static int draw(int[] percent, Random random) {
        int x = random.nextInt(100);
        for (int i = 0; i < percent.length; i++) {
            x -= percent[i];
            if (x < 0) {
                return i;
            }
        }
        return percent.length - 1;
    }

    private static Resources gib(int cores, int memoryGiB, int gpus) {
        return new Resources(cores, memoryGiB * 1024L, gpus);
    }
}
