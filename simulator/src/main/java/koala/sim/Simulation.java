package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import koala.arbitration.Arbiter;
import koala.arbitration.ArbitrationSettings;
import koala.provisioning.ProvisioningSettings;
import koala.provisioning.WorkerPolicy;

/**
 * One simulated run: a grid of sites, framework instances each with its workload and provisioning
 * settings, one virtual clock. Deterministic: the same instances, workloads and seed give the same
 * figures. Every instance starts at {@link Workload#START}; the run ends at {@code end}.
 *
 * <pre>{@code
 * Workload w = Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(24), seed);
 * RunMetrics m = Simulation.one(w, ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0), GrowDelay.PAPER, seed);
 * }</pre>
 *
 * <p>By default each instance grows from whatever the grid has idle, as the scheduler grants a grow
 * today. {@link #arbitrated} shares the grid through the scheduler's arbitration code instead
 * ({@code koala.arbitration}): grows are answered, and nodes taken back, by the policy named.
 */
public final class Simulation {
    /** How far back an instance's reported figure looks (the performance policy's input). */
    public static final Duration FIGURE_WINDOW = Duration.ofMinutes(30);

    private final EventQueue events = new EventQueue(Workload.START);
    private final SimGrid grid;
    private final long seed;
    private final List<Instance> instances = new ArrayList<>();
    private GridArbiter arbiter;
    private FloorKeeping floorKeeping = FloorKeeping.WHEN_NEEDED;
    private Suspension suspension = Suspension.NONE;

    /**
     * Whether the instances' masters suspend batch work (SWCs) for RLs, Neptune-style: at most
     * {@code maxTimes} times an SWC, and whether suspended SWCs (and the batch work of a worker
     * taken back) move to free slots on other workers. {@link #NONE}: as before, an RL without an
     * idle worker is rejected (or grown for) and a worker taken back loses what runs on it.
     */
    public record Suspension(int maxTimes, boolean moves) {
        public static final Suspension NONE = new Suspension(0, false);

        public Suspension {
            if (maxTimes < 0) {
                throw new IllegalArgumentException("at most " + maxTimes + " suspensions: not a count");
            }
        }
    }

    /**
     * How a runner that keeps its initial workers (Static, Proactive) asks for the workers KOALA's
     * arbitration took back from it. Outside arbitration nothing is taken back and this plays no part.
     */
    public enum FloorKeeping {
        /** One at a sample, and only when every worker is busy by the runner's samples and none is starting. */
        WHEN_NEEDED,
        /** All of them at every sample, as {@code FrameworkRunner.keepFloors} does today. */
        AT_ONCE
    }

    public Simulation(SimGrid grid, long seed) {
        this.grid = grid;
        this.seed = seed;
    }

    /** Adds a framework instance whose master runs on {@code home} (its O_grow estimate is that site's). */
    public Simulation instance(String name, Workload workload, ProvisioningSettings settings, GrowDelay delay,
                               String home) {
        return instance(name, workload, WorkerPolicy.of(settings), delay, home);
    }

    /** Adds an instance run by {@code policy}: one of {@link WorkerPolicy#of}, or one under study not yet in provisioning. */
    public Simulation instance(String name, Workload workload, WorkerPolicy policy, GrowDelay delay, String home) {
        Instance i = new Instance(name, events, grid, workload, policy, delay, home, seed * 7919 + instances.size(),
                arbiter, FIGURE_WINDOW, floorKeeping, suspension);
        instances.add(i);
        if (arbiter != null) {
            arbiter.add(i);
        }
        return this;
    }

    /**
     * Shares the grid between the instances added from now on through the scheduler's arbiter with
     * these settings: every grow goes through it, and it takes nodes back by its policy.
     */
    public Simulation arbitrated(ArbitrationSettings settings) {
        if (!instances.isEmpty()) {
            throw new IllegalStateException("choose the arbitration before adding instances");
        }
        this.arbiter = new GridArbiter(new Arbiter(settings), grid, events);
        return this;
    }

    /** How the instances added from now on keep their initial workers under arbitration ({@link FloorKeeping#WHEN_NEEDED} unless told). */
    public Simulation floorKeeping(FloorKeeping value) {
        this.floorKeeping = java.util.Objects.requireNonNull(value, "floorKeeping");
        return this;
    }

    /** Whether the instances added from now on suspend batch work for RLs ({@link Suspension#NONE} unless told). */
    public Simulation suspension(Suspension value) {
        this.suspension = java.util.Objects.requireNonNull(value, "suspension");
        return this;
    }

    /** Runs until {@code end}; each instance's figures of the RL / SWC mix, in the order they were added. */
    public List<MixFigures> runMixed(Instant end) {
        List<RunMetrics> runs = run(end);
        List<MixFigures> out = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            out.add(instances.get(i).mixFigures(runs.get(i), end));
        }
        return out;
    }

    /** One instance alone, as {@link #one}, suspending batch work as {@code suspension} says. */
    public static MixFigures mixed(Workload workload, ProvisioningSettings s, Suspension suspension, GrowDelay delay,
                                   long seed) {
        SimGrid grid = SimGrid.single(Math.max(s.fMax(), s.initialWorkers()) + 10);
        return new Simulation(grid, seed).suspension(suspension).instance(s.policy().shortName(), workload, s, delay,
                "fs0").runMixed(workload.end()).get(0);
    }

    /** Runs until {@code end}; the figures of each instance, in the order they were added. */
    public List<RunMetrics> run(Instant end) {
        grid.startBackground(events);
        instances.forEach(Instance::start);
        if (arbiter != null) {
            arbiter.start();
        }
        events.runUntil(end);
        return instances.stream().map(i -> i.metrics(end)).toList();
    }

    /** What a run of a shared grid gave: each instance's figures, and what the arbiter did, in nodes. */
    public record Shared(List<TenantMetrics> tenants, int nodes, double hours, long takenBack, long ended,
            long askedToShrink, long idleTaken, long grantedTakenBack, long grantedShort) {
        public Shared {
            tenants = List.copyOf(tenants);
        }

        /** Node-time of applications not killed / the grid's node-time, percent. */
        public double utilization() {
            return 100 * tenants.stream().mapToDouble(TenantMetrics::usefulNodeHours).sum() / (nodes * hours);
        }

        /** Worker node-time the instances held / the grid's node-time, percent. */
        public double held() {
            return 100 * tenants.stream().mapToDouble(t -> t.run().allocatedHours()).sum() / (nodes * hours);
        }
    }

    /** Runs until {@code end} and returns the figures of a shared grid (with {@link #arbitrated}, or without: fcfs as today). */
    public Shared runShared(Instant end) {
        List<RunMetrics> runs = run(end);
        List<TenantMetrics> tenants = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            tenants.add(instances.get(i).tenantMetrics(runs.get(i), end));
        }
        double hours = java.time.Duration.between(Workload.START, end).toMillis() / 3.6e6;
        GridArbiter.Counts c = arbiter == null ? new GridArbiter.Counts() : arbiter.counts();
        long taken = tenants.stream().mapToLong(TenantMetrics::takenBack).sum();
        return new Shared(tenants, grid.nodes(), hours, taken, c.ended, c.askedToShrink, c.idleTaken,
                c.grantedTakenBack, c.grantedShort);
    }

    /** Events processed so far, for the speed benchmark. */
    public long events() {
        return events.processed();
    }

    /**
     * One instance alone on one site big enough never to refuse it (F_max + 10 nodes, no local
     * users): the setting of the paper's Table 2, where only F_max bounds the instance.
     */
    public static RunMetrics one(Workload workload, ProvisioningSettings settings, GrowDelay delay, long seed) {
        return one(workload, WorkerPolicy.of(settings), delay, seed);
    }

    public static RunMetrics one(Workload workload, WorkerPolicy policy, GrowDelay delay, long seed) {
        ProvisioningSettings s = policy.settings();
        SimGrid grid = SimGrid.single(Math.max(s.fMax(), s.initialWorkers()) + 10);
        return new Simulation(grid, seed).instance(s.policy().shortName(), workload, policy, delay, "fs0")
                .run(workload.end()).get(0);
    }
}
