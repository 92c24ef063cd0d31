package koala.provisioning;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Static provisioning: the instance keeps its initial workers; every request is refused, no sample acts. */
public final class StaticPolicy implements WorkerPolicy {
    private final ProvisioningSettings settings;

    public StaticPolicy(ProvisioningSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public ProvisioningSettings settings() {
        return settings;
    }

    @Override
    public WorkerDecision onGrowRequest(WorkerLayer layer, int workers) {
        return Refusals.grow(why());
    }

    @Override
    public WorkerDecision onShrinkRequest(WorkerLayer layer, List<String> workerIds, Instant now) {
        return Refusals.shrink(workerIds, why());
    }

    @Override
    public WorkerDecision onIdleReleaseRequest(WorkerLayer layer, Instant now) {
        return Refusals.shrink(List.of(), why());
    }

    @Override
    public WorkerDecision onSample(WorkerLayer layer, Instant now) {
        return new WorkerDecision.Keep("keep: " + why());
    }

    private String why() {
        return "static provisioning keeps its initial " + Texts.count(settings.initialWorkers(), "worker");
    }
}
