package koala.fluent;

import koala.provisioning.Texts;
import koala.provisioning.PolicyKind;
import java.util.List;
import java.util.Objects;

/**
 * What the master would ask its runner for, and whether it asks: under a policy where the framework
 * resizes (OnDemand) it asks, under Static and Proactive the same computation is only reported. A grow names a count
 * ({@link #grow()}), a release names workers ({@link #release()}); a request for nothing is never asked.
 *
 * @param reason e.g. "ask to grow 3: job j1 lacks 3 workers of 8 slots: ..." or
 *               "report only (proactive provisioning): w2 idle since 10:00:00, 360 s >= t_idle 180 s"
 */
public record ResizeRequest(int grow, List<String> release, boolean ask, String reason) {
    public ResizeRequest {
        release = List.copyOf(release);
        Objects.requireNonNull(reason, "reason");
        if (grow < 0 || (grow > 0 && !release.isEmpty())) {
            throw new IllegalArgumentException("a request grows or releases, not both: " + grow + ", " + release);
        }
        if (ask && grow == 0 && release.isEmpty()) {
            throw new IllegalArgumentException("a request for nothing is not asked");
        }
    }

    static ResizeRequest grow(PolicyKind policy, WorkerDemand.Demand demand) {
        if (demand.workers() == 0) {
            return new ResizeRequest(0, List.of(), false, "no grow: " + demand.reason());
        }
        boolean ask = policy.frameworkResizes();
        String head = ask ? "ask to grow " + demand.workers() : reportOnly(policy);
        return new ResizeRequest(demand.workers(), List.of(), ask, head + ": " + demand.reason());
    }

    static ResizeRequest release(PolicyKind policy, List<WorkerDemand.IdleWorker> idle, String tIdle) {
        if (idle.isEmpty()) {
            return new ResizeRequest(0, List.of(), false, "no release: no worker idle >= t_idle " + tIdle);
        }
        boolean ask = policy.frameworkResizes();
        List<String> ids = idle.stream().map(WorkerDemand.IdleWorker::id).toList();
        String head = ask ? "ask to release " + Texts.list(ids) : reportOnly(policy);
        return new ResizeRequest(0, ids, ask, head + ": " + WorkerDemand.describe(idle));
    }

    private static String reportOnly(PolicyKind policy) {
        return "report only (" + policy + " provisioning)";
    }
}
