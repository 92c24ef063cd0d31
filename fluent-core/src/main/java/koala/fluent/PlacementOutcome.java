package koala.fluent;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of placing one job: an {@link AppOutcome} per application, in the job's order, and
 * the workers as they are once the placed applications run.
 */
public record PlacementOutcome(String jobId, List<AppOutcome> apps, List<FluentWorker> workers) {
    public PlacementOutcome {
        apps = List.copyOf(apps);
        workers = List.copyOf(workers);
    }

    public List<AppOutcome> with(AppOutcome.Verdict verdict) {
        return apps.stream().filter(a -> a.verdict() == verdict).toList();
    }

    public Optional<AppOutcome> of(String appId) {
        return apps.stream().filter(a -> a.app().id().equals(appId)).findFirst();
    }

    /** Every application's reason, one per line, in the job's order. */
    public List<String> reasons() {
        return apps.stream().map(AppOutcome::reason).toList();
    }

    /** True when every application of the job started at once. */
    public boolean allPlaced() {
        return apps.stream().allMatch(a -> a.verdict() == AppOutcome.Verdict.PLACED);
    }
}
