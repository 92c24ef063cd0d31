package koala.provisioning;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import koala.provisioning.WorkerDecision.Kind;

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
        return Refusals.grow(Kind.NOT_ON_REQUEST, why());
    }

    @Override
    public WorkerDecision onShrinkRequest(WorkerLayer layer, List<String> workerIds, Instant now) {
        return Refusals.shrink(workerIds, Kind.NOT_ON_REQUEST, why());
    }

    @Override
    public WorkerDecision onIdleReleaseRequest(WorkerLayer layer, Instant now) {
        return Refusals.shrink(List.of(), Kind.NOT_ON_REQUEST, why());
    }

    @Override
    public WorkerDecision onSample(WorkerLayer layer, Instant now) {
        return new WorkerDecision.Keep(Kind.NOT_ON_SAMPLE, "keep: " + why());
    }

    private String why() {
        return "static provisioning keeps its initial " + Texts.count(settings.initialWorkers(), "worker");
    }
}
