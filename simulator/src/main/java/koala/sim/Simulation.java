package koala.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 */
public final class Simulation {
    private final EventQueue events = new EventQueue(Workload.START);
    private final SimGrid grid;
    private final long seed;
    private final List<Instance> instances = new ArrayList<>();

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
        instances.add(new Instance(name, events, grid, workload, policy, delay, home, seed * 7919 + instances.size()));
        return this;
    }

    /** Runs until {@code end}; the figures of each instance, in the order they were added. */
    public List<RunMetrics> run(Instant end) {
        grid.startBackground(events);
        instances.forEach(Instance::start);
        events.runUntil(end);
        return instances.stream().map(i -> i.metrics(end)).toList();
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
