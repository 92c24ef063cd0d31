package koala.sim.experiment;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import koala.provisioning.PolicyKind;
import koala.sim.Generators;
import koala.sim.GrowDelay;
import koala.sim.RunMetrics;
import koala.sim.SimGrid;
import koala.sim.Simulation;
import koala.sim.Workload;

/**
 * How fast the simulator runs, against the two targets: 24 simulated hours of
 * {@code W_rl} for Static, OnDemand and Proactive in under 5 s; and a grid of 100 sites × 1,000
 * nodes (local users' load 50–90% of each site, changing every 10 minutes on average) with 100
 * framework instances, each on its own {@code W_rl} and the four policies in turn, at over 1,000×
 * real time. One thread; wall-clock time is read here, in the benchmark, never in the simulator.
 */
public final class SpeedBenchmark {
    private final PrintStream out;

    public SpeedBenchmark(PrintStream out) {
        this.out = out;
    }

    /** Both benchmarks; true when both targets are met. */
    public boolean run(Duration gridLength) {
        boolean small = threePolicies();
        boolean grid = grid(100, 1000, 100, gridLength);
        return small && grid;
    }

    /**
     * 24 h of W_rl for Static, OnDemand and Proactive, one after the other, workload generation
     * included, after an untimed warm-up of 2 simulated hours each (class loading and the JIT's first
     * compilations are not the simulator's speed).
     */
    public boolean threePolicies() {
        for (PolicyKind p : List.of(PolicyKind.STATIC, PolicyKind.ONDEMAND, PolicyKind.PROACTIVE)) {
            Simulation.one(Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(2), 2), Setup.PAPER.settings(p),
                    GrowDelay.PAPER, 2);
        }
        long t0 = System.nanoTime();
        for (PolicyKind p : List.of(PolicyKind.STATIC, PolicyKind.ONDEMAND, PolicyKind.PROACTIVE)) {
            long t = System.nanoTime();
            Workload w = Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(24), 1);
            RunMetrics m = Simulation.one(w, Setup.PAPER.settings(p), GrowDelay.PAPER, 1);
            out.printf("  %-10s 24 h of W_rl (%d applications) in %5.0f ms%n", p.shortName(), m.applications(),
                    (System.nanoTime() - t) / 1e6);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        boolean met = s < 5;
        out.printf("  three policies, 24 simulated hours each: %.2f s   target < 5 s: %s%n", s, met ? "met" : "NOT met");
        return met;
    }

    /** {@code instances} instances on {@code sites} × {@code nodes}, for {@code length} of virtual time. */
    public boolean grid(int sites, int nodes, int instances, Duration length) {
        SimGrid grid = new SimGrid(Collections.nCopies(sites, nodes), new SimGrid.Background(0.5, 0.9,
                Duration.ofMinutes(10)), 42);
        Simulation sim = new Simulation(grid, 42);
        List<PolicyKind> kinds = List.of(PolicyKind.STATIC, PolicyKind.ONDEMAND, PolicyKind.PROACTIVE, PolicyKind.RESERVE);
        List<Workload> workloads = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            workloads.add(Generators.rl(Generators.RlParameters.PAPER, length, 1000 + i));
        }
        for (int i = 0; i < instances; i++) {
            PolicyKind kind = kinds.get(i % kinds.size());
            sim.instance("fi" + i + "-" + kind.shortName(), workloads.get(i), Setup.PAPER.settings(kind), GrowDelay.PAPER,
                    "fs" + (i % sites));
        }
        long t0 = System.nanoTime();
        List<RunMetrics> results = sim.run(workloads.get(0).end());
        double wall = (System.nanoTime() - t0) / 1e9;
        double ratio = length.toMillis() / 1000.0 / wall;
        long apps = results.stream().mapToLong(RunMetrics::applications).sum();
        boolean met = ratio > 1000;
        out.printf("  grid of %d sites × %,d nodes, %d framework instances, %d simulated hours: %.2f s wall, "
                        + "%,d events (%,.0f/s), %,d applications%n", sites, nodes, instances, length.toHours(), wall,
                sim.events(), sim.events() / wall, apps);
        out.printf("  %,.0f× real time   target > 1,000×: %s%n", ratio, met ? "met" : "NOT met");
        return met;
    }
}
