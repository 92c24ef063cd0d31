package koala.sim.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The start-time experiment's workload, the same for the same arguments (one seeded {@link Random}): KOALA jobs
 * whose users' wall times are wrong as real ones are, and local users on each site.
 *
 * <p>KOALA jobs: {@value #USERS} users, each with 1-4 applications (job names), each with a typical runtime
 * (log-uniform from 3 min to 8 h) and size (1, 2, 4, 8, 16 or 32 one-core nodes; weights 25, 20, 20, 15, 12, 8).
 * Three jobs in four are a user resubmitting one of their applications, so history means something; one in
 * four is a one-off of a fresh name. A run lasts its application's typical runtime times a lognormal factor
 * (sigma 0.3); one in twenty crashes early (2-30% of it).
 *
 * <p>Wall times (Tsafrir, Etsion and Feitelson 2007: overestimates, "modal" round values): 12% give none, 13%
 * give the site's maximum (12 h), the others their application's typical runtime times 1.1-4 (5% of them
 * 0.5-0.95, too short) rounded up to the next round value (5, 10, 15, 20, 30, 45 min, 1, 1.5, 2, 3, 4, 6, 8,
 * 10, 12, 24 h). A job is killed at its wall time: what it runs is capped there.
 *
 * <p>Local users: on every site, jobs of 1-8 cores on one host, exponential runtimes of mean 30 min, arriving
 * at the rate that keeps {@link #LOCAL_SHARE} of the site's cores busy on average. KOALA's jobs arrive (Poisson)
 * at the rate that makes KOALA's and the local users' offered load together {@code load} of the grid.
 */
public record StartTimeWorkload(List<Job> jobs, List<LocalJob> local) {
    public static final int USERS = 40;
    public static final double LOCAL_SHARE = 0.15;
    static final Duration MAX_WALL = Duration.ofHours(12);
    private static final long[] ROUND_MINUTES = {5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360, 480, 600, 720, 1440};
    private static final int[] SIZES = {1, 2, 4, 8, 16, 32};
    private static final int[] SIZE_WEIGHTS = {25, 20, 20, 15, 12, 8};
    private static final double LOCAL_MEAN_RUNTIME_S = 1800;

    /** A KOALA job: what it runs (capped at its wall time) and what its user said (null: nothing). */
    public record Job(int id, long arrivalMs, String owner, String name, int nodes, long runtimeMs, Duration wallTime) {
    }

    /** A local user's job on one site. */
    public record LocalJob(int site, long arrivalMs, int cores, long runtimeMs) {
    }

    private record App(String owner, String name, double typicalS, int nodes) {
    }

    public StartTimeWorkload {
        jobs = List.copyOf(jobs);
        local = List.copyOf(local);
    }

    /** {@code n} KOALA jobs at offered load {@code load} (KOALA and local users together) on sites of these cores. */
    public static StartTimeWorkload generate(int n, double load, int[] siteCores, long seed) {
        Random random = new Random(seed);
        List<App> apps = apps(random);
        List<Job> drafts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            drafts.add(job(i + 1, apps, random));
        }
        int cores = java.util.Arrays.stream(siteCores).sum();
        double coreSeconds = drafts.stream().mapToDouble(j -> j.nodes() * j.runtimeMs() / 1000.0).average().orElse(1);
        double rate = Math.max(0.01, load - LOCAL_SHARE) * cores / coreSeconds;
        List<Job> jobs = new ArrayList<>();
        double t = 0;
        for (Job j : drafts) {
            t += -Math.log(1 - random.nextDouble()) / rate;
            jobs.add(new Job(j.id(), Math.round(t * 1000), j.owner(), j.name(), j.nodes(), j.runtimeMs(), j.wallTime()));
        }
        return new StartTimeWorkload(jobs, local(siteCores, t * 1.2, random));
    }

    private static List<App> apps(Random random) {
        List<App> apps = new ArrayList<>();
        for (int u = 0; u < USERS; u++) {
            int k = 1 + random.nextInt(4);
            for (int a = 0; a < k; a++) {
                apps.add(app("u" + u, "app" + a, random));
            }
        }
        return apps;
    }

    private static App app(String owner, String name, Random random) {
        double typical = Math.exp(Math.log(180) + random.nextDouble() * Math.log(480.0 / 3));
        return new App(owner, name, typical, SIZES[weighted(random)]);
    }

    private static Job job(int id, List<App> apps, Random random) {
        App app = random.nextInt(4) == 0 ? app("u" + random.nextInt(USERS), "once" + id, random)
                : apps.get(random.nextInt(apps.size()));
        double run = app.typicalS() * Math.exp(0.3 * random.nextGaussian());
        if (random.nextInt(20) == 0) {
            run *= 0.02 + 0.28 * random.nextDouble();
        }
        Duration wall = wallTime(app.typicalS(), random);
        long ms = Math.max(1000, Math.round(run * 1000));
        if (wall != null) {
            ms = Math.min(ms, wall.toMillis());
        }
        return new Job(id, 0, app.owner(), app.name(), app.nodes(), ms, wall);
    }

    private static Duration wallTime(double typicalS, Random random) {
        double r = random.nextDouble();
        if (r < 0.12) {
            return null;
        }
        if (r < 0.25) {
            return MAX_WALL;
        }
        double factor = random.nextInt(20) == 0 ? 0.5 + 0.45 * random.nextDouble() : 1.1 + 2.9 * random.nextDouble();
        double minutes = typicalS * factor / 60;
        for (long m : ROUND_MINUTES) {
            if (m >= minutes) {
                return Duration.ofMinutes(m);
            }
        }
        return Duration.ofMinutes(ROUND_MINUTES[ROUND_MINUTES.length - 1]);
    }

    private static int weighted(Random random) {
        int total = java.util.Arrays.stream(SIZE_WEIGHTS).sum();
        int r = random.nextInt(total);
        for (int i = 0; i < SIZE_WEIGHTS.length; i++) {
            r -= SIZE_WEIGHTS[i];
            if (r < 0) {
                return i;
            }
        }
        return SIZE_WEIGHTS.length - 1;
    }

    private static List<LocalJob> local(int[] siteCores, double untilS, Random random) {
        List<LocalJob> jobs = new ArrayList<>();
        for (int s = 0; s < siteCores.length; s++) {
            double rate = LOCAL_SHARE * siteCores[s] / (4.5 * LOCAL_MEAN_RUNTIME_S);
            for (double t = 0; ; ) {
                t += -Math.log(1 - random.nextDouble()) / rate;
                if (t > untilS) {
                    break;
                }
                long run = Math.max(1000, Math.round(-Math.log(1 - random.nextDouble()) * LOCAL_MEAN_RUNTIME_S * 1000));
                jobs.add(new LocalJob(s, Math.round(t * 1000), 1 + random.nextInt(8), run));
            }
        }
        jobs.sort(java.util.Comparator.comparingLong(LocalJob::arrivalMs));
        return jobs;
    }
}
