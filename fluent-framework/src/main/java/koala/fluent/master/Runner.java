package koala.fluent.master;

import java.time.Instant;
import java.util.List;
import koala.common.runner.RunnerClient;
import koala.common.runner.RunnerMessages.GrowResult;
import koala.common.runner.RunnerMessages.OrchestratorPlace;
import koala.common.runner.RunnerMessages.ShrinkResult;
import koala.common.runner.RunnerMessages.Status;

/** The master's line to its framework runner: the runner's RPC, as much of it as the master uses. */
public interface Runner {
    GrowResult grow(int workers);

    ShrinkResult shrink(List<String> workers);

    OrchestratorPlace orchestrator();

    void orchestratorDone(String node);

    void activity(String node, boolean busy, Instant since);

    Status status();

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
        };
    }
}
