package koala.fluent.master;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import koala.api.runner.RunnerMessages.Entity;
import koala.api.runner.RunnerMessages.GrowResult;
import koala.api.runner.RunnerMessages.OrchestratorPlace;
import koala.api.runner.RunnerMessages.ShrinkResult;
import koala.api.runner.RunnerMessages.Status;

/** A runner that grants grows up to {@code fMax} workers, names them w1, w2, ... and releases what it is asked. */
final class FakeRunner implements Runner {
    final List<String> calls = new ArrayList<>();
    final List<String> workers = new ArrayList<>();
    private final String policy;
    private final int fMax;
    private final Duration tIdle;
    private int named;
    /** What the grid asks back now; null for nothing. */
    koala.api.scheduler.ShareOrders.GiveBack ask;
    /** Workers KOALA already ended for the arbitration: refused on a give-back, as the runner refuses them. */
    final java.util.Set<String> taken = new java.util.HashSet<>();
    Double figure;
    Double rejectRate;

    FakeRunner(String policy, int fMax, Duration tIdle) {
        this.policy = policy;
        this.fMax = fMax;
        this.tIdle = tIdle;
    }

    @Override
    public GrowResult grow(int n) {
        int granted = Math.min(n, fMax - workers.size());
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < granted; i++) {
            nodes.add("w" + ++named);
        }
        workers.addAll(nodes);
        calls.add("grow " + n);
        return new GrowResult(n, granted, nodes, granted < n ? "F_max " + fMax : null);
    }

    @Override
    public ShrinkResult shrink(List<String> nodes) {
        workers.removeAll(nodes);
        calls.add("shrink " + nodes);
        return new ShrinkResult(nodes, List.of(), "idle");
    }

    @Override
    public koala.api.scheduler.ShareOrders.GiveBack giveBack() {
        return ask;
    }

    @Override
    public ShrinkResult giveBack(List<String> nodes) {
        calls.add("give back " + nodes);
        List<koala.api.runner.RunnerMessages.Refusal> refused = nodes.stream().filter(taken::contains)
                .map(n -> new koala.api.runner.RunnerMessages.Refusal(n, "taken back already by the grid's "
                        + "arbitration (fair)")).toList();
        List<String> given = nodes.stream().filter(n -> !taken.contains(n)).toList();
        workers.removeAll(given);
        if (!given.isEmpty()) {
            ask = ask.workers() == given.size() ? null
                    : new koala.api.scheduler.ShareOrders.GiveBack(ask.workers() - given.size(), ask.by(), ask.reason());
        }
        return new ShrinkResult(given, refused, "asked");
    }

    @Override
    public void figure(double slowdown, double rejectRate) {
        figure = slowdown;
        this.rejectRate = rejectRate;
    }

    @Override
    public OrchestratorPlace orchestrator() {
        calls.add("orchestrator");
        return new OrchestratorPlace("o1", false, "on o1");
    }

    @Override
    public void orchestratorDone(String node) {
        calls.add("orchestrator done " + node);
    }

    @Override
    public void activity(String node, boolean busy, Instant since) {
        calls.add(node + (busy ? " busy" : " idle since " + since));
    }

    @Override
    public Status status() {
        List<Entity> entities = workers.stream().map(w -> new Entity(w, "worker", "fs0", "vm", "RUNNING", false,
                0, null, 0, null)).toList();
        return new Status(7, "fluent", "RUNNING", policy, List.of(), "vm:1", entities, List.of(), tIdle.toMillis(),
                2000);
    }
}
