package koala.provisioning;

import java.util.LinkedHashSet;
import java.util.List;

/** Refusing a request outright: the decision Static and Proactive give the framework's requests. */
final class Refusals {
    private Refusals() {
    }

    /** "shrink refused: {why}", with each named worker (once, in the order named) refused for the same reason. */
    static WorkerDecision.Keep shrink(List<String> workerIds, WorkerDecision.Kind kind, String why) {
        List<WorkerDecision.Refusal> refused = new LinkedHashSet<>(workerIds).stream()
                .map(id -> new WorkerDecision.Refusal(id, kind, why)).toList();
        return new WorkerDecision.Keep(kind, "shrink refused: " + why, refused);
    }

    static WorkerDecision.Keep grow(WorkerDecision.Kind kind, String why) {
        return new WorkerDecision.Keep(kind, "grow refused: " + why);
    }
}
