package koala.placement;

import java.util.AbstractList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

/**
 * A site's hosts as {@link SiteView#hosts} holds them: an immutable list by host name that also keeps
 * their free resources in flat arrays, their sums and the distinct shapes of their totals. Built once
 * per view, so that the many decisions made against one snapshot count nodes over plain arrays and
 * bound a site by its sums before counting it host by host.
 */
final class HostList extends AbstractList<HostView> implements RandomAccess {
    private final HostView[] hosts;
    final int[] freeCores;
    final long[] freeMemory;
    final int[] freeGpus;
    final Resources freeSum;
    final Resources totalSum;
    /**
     * Each distinct total among the hosts, with how many hosts have it: few, however many hosts. Counted when
     * first asked for (most views are never asked); an immutable map, so a race only counts it twice.
     */
    private Map<Resources, Integer> totalShapes;

    private HostList(HostView[] hosts) {
        this.hosts = hosts;
        freeCores = new int[hosts.length];
        freeMemory = new long[hosts.length];
        freeGpus = new int[hosts.length];
        long cores = 0;
        long memory = 0;
        long gpus = 0;
        long allCores = 0;
        long allMemory = 0;
        long allGpus = 0;
        for (int h = 0; h < hosts.length; h++) {
            Resources f = hosts[h].free();
            freeCores[h] = f.cores();
            freeMemory[h] = f.memoryMiB();
            freeGpus[h] = f.gpus();
            cores += f.cores();
            memory += f.memoryMiB();
            gpus += f.gpus();
            Resources t = hosts[h].total();
            allCores += t.cores();
            allMemory += t.memoryMiB();
            allGpus += t.gpus();
        }
        freeSum = new Resources(Math.toIntExact(cores), memory, Math.toIntExact(gpus));
        totalSum = new Resources(Math.toIntExact(allCores), allMemory, Math.toIntExact(allGpus));
    }

    private Map<Resources, Integer> totalShapes() {
        Map<Resources, Integer> shapes = totalShapes;
        if (shapes == null) {
            Map<Resources, Integer> counted = new LinkedHashMap<>();
            for (HostView h : hosts) {
                counted.merge(h.total(), 1, Integer::sum);
            }
            shapes = Map.copyOf(counted);
            totalShapes = shapes;
        }
        return shapes;
    }

    /** The index of the host named {@code name}, or a negative number when there is none. */
    int indexOf(String name) {
        int low = 0;
        int high = hosts.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = hosts[mid].host().compareTo(name);
            if (c < 0) {
                low = mid + 1;
            } else if (c > 0) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** The hosts sorted by name, each name once; so every choice of host breaks ties by name. */
    static HostList of(String site, List<HostView> hosts) {
        if (hosts instanceof HostList already) {
            return already;
        }
        HostView[] sorted = hosts.toArray(HostView[]::new);
        if (!strictlyByName(sorted)) {
            java.util.Arrays.sort(sorted, java.util.Comparator.comparing(HostView::host));
            Set<String> names = new HashSet<>();
            for (HostView h : sorted) {
                if (!names.add(h.host())) {
                    throw new IllegalArgumentException("host " + h.host() + " appears twice in the view of site " + site);
                }
            }
        }
        return new HostList(sorted);
    }

    /** Whether the hosts are sorted by name already, no name twice: a site's hosts, made again, mostly are. */
    private static boolean strictlyByName(HostView[] hosts) {
        for (int h = 1; h < hosts.length; h++) {
            if (hosts[h - 1].host().compareTo(hosts[h].host()) >= 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public HostView get(int index) {
        return hosts[index];
    }

    @Override
    public int size() {
        return hosts.length;
    }

    String name(int host) {
        return hosts[host].host();
    }

    /** Nodes of {@code per} that fit in the hosts' free resources, each host counted alone. */
    int capacity(Resources per) {
        return capacity(freeCores, freeMemory, freeGpus, per);
    }

    static int capacity(int[] cores, long[] memory, int[] gpus, Resources per) {
        long sum = 0;
        int c = per.cores();
        double perCore = 1.0 / c;
        if (per.memoryMiB() == 0 && per.gpus() == 0) {
            // most requests ask for cores alone: no division at all when it is one core
            for (int core : cores) {
                sum += c == 1 ? core : quotient(core, c, perCore);
            }
            return (int) Math.min(Integer.MAX_VALUE, sum);
        }
        long m = per.memoryMiB();
        double perMemory = m == 0 ? 0 : 1.0 / m;
        int g = per.gpus();
        double perGpu = g == 0 ? 0 : 1.0 / g;
        for (int h = 0; h < cores.length; h++) {
            long n = quotient(cores[h], c, perCore);
            if (m > 0 && n > 0) {
                n = Math.min(n, quotient(memory[h], m, perMemory));
            }
            if (g > 0 && n > 0) {
                n = Math.min(n, quotient(gpus[h], g, perGpu));
            }
            sum += n;
        }
        return (int) Math.min(Integer.MAX_VALUE, sum);
    }

    /**
     * {@code x / d} rounded down, for {@code x >= 0} and {@code d > 0}, by a multiplication with
     * {@code 1.0 / d} corrected by one either way: the counting loops run over every host of every site
     * a decision looks at, and a 64-bit division costs them tens of cycles where this costs a few.
     */
    static long quotient(long x, long d, double reciprocal) {
        long q = (long) (x * reciprocal);
        if (q * d > x) {
            return q - 1;
        }
        return (q + 1) * d <= x ? q + 1 : q;
    }

    /**
     * At least {@link #capacity}: as if the site were one host holding all its free resources. It is
     * exact for a request of one core, and cheap, so a decision counts host by host only the sites
     * whose bound could beat the best count so far.
     */
    int bound(Resources per) {
        return pooled(freeSum, per);
    }

    /** {@code free.count(per)} by {@link #quotient}: asked once per site for every component placed. */
    static int pooled(Resources free, Resources per) {
        long n = quotient(free.cores(), per.cores(), 1.0 / per.cores());
        if (per.memoryMiB() > 0) {
            n = Math.min(n, quotient(free.memoryMiB(), per.memoryMiB(), 1.0 / per.memoryMiB()));
        }
        if (per.gpus() > 0) {
            n = Math.min(n, quotient(free.gpus(), per.gpus(), 1.0 / per.gpus()));
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    /** Nodes of {@code per} the hosts could ever hold. */
    int totalCapacity(Resources per) {
        long sum = 0;
        for (Map.Entry<Resources, Integer> shape : totalShapes().entrySet()) {
            sum += (long) shape.getKey().count(per) * shape.getValue();
        }
        return (int) Math.min(Integer.MAX_VALUE, sum);
    }
}
