package koala.fluent.master;

import java.time.Instant;
import java.util.List;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages.GrowResult;
import koala.api.runner.RunnerMessages.OrchestratorPlace;
import koala.api.runner.RunnerMessages.ShrinkResult;
import koala.api.runner.RunnerMessages.Status;

/** The master's line to its framework runner: the runner's RPC, as much of it as the master uses. */
public interface Runner {
    GrowResult grow(int workers);

    ShrinkResult shrink(List<String> workers);

    OrchestratorPlace orchestrator();

    void orchestratorDone(String node);

    void activity(String node, boolean busy, Instant since);

    Status status();

    /**
     * Reports how well the framework does (a slowdown, 1 = as if alone), for the grid's arbitration,
     * and the share of applications it rejected over the same window (0 to 1), for the scheduler's metrics.
     */
    default void figure(double slowdown, double rejectRate) {
    }

    /** What the grid's arbitration asks the instance to give back now; null for nothing. */
    default koala.api.scheduler.ShareOrders.GiveBack giveBack() {
        return null;
    }

    /** Gives back these workers at the grid's request. */
    default ShrinkResult giveBack(List<String> workers) {
        return new ShrinkResult(List.of(), List.of(), "nothing is asked back");
    }

    static Runner of(RunnerClient client) {
        return new Runner() {
            @Override
            public GrowResult grow(int workers) {
                return client.grow(workers);
            }

            @Override
            public ShrinkResult shrink(List<String> workers) {
                return client.shrink(workers);
            }

            @Override
            public OrchestratorPlace orchestrator() {
                return client.orchestrator();
            }

            @Override
            public void orchestratorDone(String node) {
                client.orchestratorDone(node);
            }

            @Override
            public void activity(String node, boolean busy, Instant since) {
                client.activity(node, busy, since);
            }

            @Override
            public Status status() {
                return client.status();
            }

            @Override
            public void figure(double slowdown, double rejectRate) {
                client.figure(slowdown, rejectRate);
            }

            @Override
            public koala.api.scheduler.ShareOrders.GiveBack giveBack() {
                return client.giveBack();
            }

            @Override
            public ShrinkResult giveBack(List<String> workers) {
                return client.giveBack(workers);
            }
        };
    }
}
