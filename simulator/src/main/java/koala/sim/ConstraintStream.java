package koala.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import koala.constraints.Constraint;
import koala.constraints.Constraint.Affinity;
import koala.constraints.Constraint.AntiAffinity;
import koala.constraints.Constraint.Cardinality;
import koala.constraints.Group;
import koala.constraints.Node;
import koala.constraints.Tags;

/**
 * A seeded stream of framework instances with placement constraints, for the constraints
 * experiment: first {@code instances} deployments (a master, an orchestrator and 2–6 workers each),
 * then {@code events} events, each a grow (1–3 workers, up to {@code F_max} = 20), a shrink (1–2 of the
 * newest workers, never below the initial count) or churn (an instance ends, a new one is deployed),
 * so that about {@code instances} run throughout. The stream does not depend on where anything lands:
 * every placement policy is given the same one.
 *
 * <p>Each instance draws its constraints from {@link Mix}: its master and orchestrator apart (over its
 * site, or over its rack), at most 2 of its workers per host, its workers on its master's site, and for
 * some, its workers on the site of an earlier instance's master; each hard or soft by a coin.
 */
public final class ConstraintStream {
    public static final Group RACK = Group.of("rack");
    /** Workers an instance may have at most (the paper's F_max). */
    static final int F_MAX = 20;

    private ConstraintStream() {
    }

    /**
     * The grid: {@code sites} × {@code nodes} nodes of {@code slots} slots; site {@code fsS} on network
     * {@code net(S / sitesPerNetwork)}, its nodes in racks of {@code rackSize}.
     */
    public record Grid(int sites, int nodes, int slots, int rackSize, int sitesPerNetwork) {
        public static final Grid DEFAULT = new Grid(100, 50, 4, 10, 10);

        public List<Node> build() {
            List<Node> all = new ArrayList<>(sites * nodes);
            for (int s = 0; s < sites; s++) {
                String site = String.format("fs%03d", s);
                for (int n = 0; n < nodes; n++) {
                    all.add(new Node(String.format("%s-n%02d", site, n), slots, Map.of(Group.SITE, site,
                            Group.NETWORK, "net" + s / sitesPerNetwork, RACK, site + "/r" + n / rackSize)));
                }
            }
            return all;
        }

        public int totalSlots() {
            return sites * nodes * slots;
        }
    }

    /**
     * How often each constraint is drawn for an instance, and how often it is hard.
     *
     * @param apart     master and orchestrator anti-affine (over the site, or over the rack with {@code apartRack})
     * @param perHost   at most 2 of the instance's workers per host (cardinality 0..2 over host)
     * @param nearOwn   workers affine to the instance's own master over site
     * @param nearOther workers affine to an earlier instance's master over site
     * @param hard      chance that a drawn constraint is hard
     */
    public record Mix(double apart, double apartRack, double perHost, double nearOwn, double nearOther, double hard) {
        public static final Mix DEFAULT = new Mix(0.7, 0.2, 0.6, 0.4, 0.1, 0.5);
    }

    /** What happens next to the grid. */
    public sealed interface Event permits Deploy, Grow, Shrink, Depart {
    }

    /** A new instance: its master, orchestrator and first workers at once, with its constraints. */
    public record Deploy(String instance, int workers, List<Constraint> constraints) implements Event {
    }

    /** New workers for a running instance, numbered from {@code first}. */
    public record Grow(String instance, int first, int workers) implements Event {
    }

    /** The instance's {@code workers} newest workers end. */
    public record Shrink(String instance, int workers) implements Event {
    }

    /** The instance ends, with everything it runs. */
    public record Depart(String instance) implements Event {
    }

    public static Tags tags(String instance, String role) {
        return Tags.of("instance=" + instance, "role=" + role);
    }

    /** The stream: the deployments first ({@code instances} of them), then {@code events} events. */
    public static List<Event> generate(int instances, int events, Mix mix, long seed) {
        Random random = new Random(seed);
        List<Event> stream = new ArrayList<>(instances + events * 2);
        List<String> live = new ArrayList<>();
        Map<String, int[]> sizes = new HashMap<>(); // instance -> {initial, now, next worker number}
        int[] next = {0};
        for (int i = 0; i < instances; i++) {
            stream.add(deploy(random, mix, live, sizes, next));
        }
        for (int e = 0; e < events; e++) {
            double p = random.nextDouble();
            String id = live.get(random.nextInt(live.size()));
            int[] size = sizes.get(id);
            if (p < 0.45) {
                int n = Math.min(1 + random.nextInt(3), F_MAX - size[1]);
                if (n > 0) {
                    stream.add(new Grow(id, size[2], n));
                    size[1] += n;
                    size[2] += n;
                }
            } else if (p < 0.85) {
                int n = Math.min(1 + random.nextInt(2), size[1] - size[0]);
                if (n > 0) {
                    stream.add(new Shrink(id, n));
                    size[1] -= n;
                }
            } else {
                live.remove(id);
                sizes.remove(id);
                stream.add(new Depart(id));
                stream.add(deploy(random, mix, live, sizes, next));
            }
        }
        return stream;
    }

    private static Deploy deploy(Random random, Mix mix, List<String> live, Map<String, int[]> sizes, int[] next) {
        String id = "i" + next[0]++;
        int workers = 2 + random.nextInt(5);
        List<Constraint> ks = new ArrayList<>();
        Tags master = tags(id, "master");
        Tags worker = tags(id, "worker");
        if (random.nextDouble() < mix.apart()) {
            Group over = random.nextDouble() < mix.apartRack() ? RACK : Group.SITE;
            ks.add(new AntiAffinity(master, tags(id, "orchestrator"), over, hard(random, mix)));
        }
        if (random.nextDouble() < mix.perHost()) {
            ks.add(new Cardinality(worker, worker, Group.HOST, 0, 2, hard(random, mix)));
        }
        if (random.nextDouble() < mix.nearOwn()) {
            ks.add(new Affinity(worker, master, Group.SITE, hard(random, mix)));
        }
        if (!live.isEmpty() && random.nextDouble() < mix.nearOther()) {
            String other = live.get(random.nextInt(live.size()));
            ks.add(new Affinity(worker, tags(other, "master"), Group.SITE, hard(random, mix)));
        }
        live.add(id);
        sizes.put(id, new int[] {workers, workers, workers});
        return new Deploy(id, workers, ks);
    }

    private static boolean hard(Random random, Mix mix) {
        return random.nextDouble() < mix.hard();
    }
}
