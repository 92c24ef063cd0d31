package koala.jdf;

import java.util.List;
import java.util.Optional;

/**
 * Checks of the job as a whole, run once the file reads cleanly: attributes a component must have,
 * the shape of flexible and framework jobs, and the placement policy. The checks against the grid's
 * clusters are in {@link ClusterChecks}.
 *
 * <ul>
 *   <li>every component of a rigid or flexible job has an {@code executable};</li>
 *   <li>a flexible job has one component and names no cluster: KOALA splits its count over clusters;</li>
 *   <li>{@code flexible-cluster-minimization} places flexible jobs only;</li>
 *   <li>a framework job: every component has a {@code role}; exactly one master, of one node; at least
 *       one orchestrator; {@code fMax} not below the initial workers; {@code uMin} below {@code uMax};
 *       {@code tIdle} or {@code tIdleFactor}, not both.</li>
 * </ul>
 */
final class JobChecks {
    private final JobAssembler.Assembled job;
    private final Problems problems;

    private JobChecks(JobAssembler.Assembled job, Problems problems) {
        this.job = job;
        this.problems = problems;
    }

    static void check(JobAssembler.Assembled job, Problems problems) {
        JobChecks checks = new JobChecks(job, problems);
        if (job.jobType() == null) {
            return;
        }
        if (job.is("framework")) {
            checks.framework();
        } else {
            checks.executables();
        }
        if (job.is("flexible")) {
            checks.flexible();
        }
        checks.placement();
    }

    private void executables() {
        for (Draft draft : job.drafts()) {
            if (!draft.has(Attribute.EXECUTABLE)) {
                problems.add(draft.at(), "executable: missing; every component needs the absolute path of its "
                        + "program");
            }
        }
    }

    private void flexible() {
        List<Draft> drafts = job.drafts();
        if (drafts.size() > 1) {
            problems.add(drafts.get(1).at(), "a flexible job has one component (KOALA splits its count over "
                    + "clusters); this is component 2 of " + drafts.size());
        }
        for (Draft draft : drafts) {
            draft.get(Attribute.RESOURCE_MANAGER_CONTACT).ifPresent(f -> problems.add(f.relation().at(),
                    "resourceManagerContact: a flexible job names no cluster; KOALA splits it over clusters"));
        }
    }

    private void placement() {
        Draft.Found placement = job.jobLevel().get(Attribute.PLACEMENT);
        if (placement != null && JobAssembler.FLEXIBLE_DEFAULT.equals(placement.value()) && !job.is("flexible")) {
            problems.add(placement.valueAt(), "placement: flexible-cluster-minimization places flexible jobs "
                    + "only (jobType = flexible)");
        }
    }

    private void framework() {
        Draft firstMaster = null;
        boolean orchestrator = false;
        for (Draft draft : job.drafts()) {
            Optional<String> role = draft.value(Attribute.ROLE, String.class);
            if (!draft.has(Attribute.ROLE)) {
                problems.add(draft.at(), "role: missing; each component of a framework job is its master, "
                        + "orchestrators or workers");
            } else if (role.filter("master"::equals).isPresent()) {
                firstMaster = master(draft, firstMaster);
            }
            orchestrator |= role.filter("orchestrator"::equals).isPresent();
        }
        SourcePosition at = job.job().position();
        if (firstMaster == null && job.drafts().stream().allMatch(d -> d.has(Attribute.ROLE))) {
            problems.add(at, "a framework job needs one master component (role = master)");
        }
        if (!orchestrator && job.drafts().stream().allMatch(d -> d.has(Attribute.ROLE))) {
            problems.add(at, "a framework job needs at least one orchestrator component (role = orchestrator)");
        }
        frameworkSettings();
    }

    /** One master, of one node; returns the first master seen. */
    private Draft master(Draft draft, Draft firstMaster) {
        if (firstMaster != null) {
            problems.add(draft.where(Attribute.ROLE), "role: a framework job has one master; the first is at "
                    + Problems.lineColumn(firstMaster.at()));
            return firstMaster;
        }
        draft.value(Attribute.COUNT, Integer.class).filter(c -> c != 1).ifPresent(c -> problems.add(
                draft.where(Attribute.COUNT), "count: the master is one node, not " + c));
        return draft;
    }

    private void frameworkSettings() {
        int workers = job.job().components().stream().filter(c -> "worker".equals(c.role()))
                .mapToInt(ComponentSpec::count).sum();
        number(Attribute.F_MAX).filter(max -> max < workers).ifPresent(max -> problems.add(
                where(Attribute.F_MAX), "fMax: " + fmt(max) + " is fewer than the " + workers
                        + " workers the job starts with"));
        Optional<Double> uMin = number(Attribute.U_MIN);
        number(Attribute.U_MAX).filter(max -> uMin.isPresent() && max <= uMin.get()).ifPresent(max -> problems.add(
                where(Attribute.U_MAX), "uMax: " + fmt(max) + " must be above uMin (" + fmt(uMin.get()) + ")"));
        if (job.jobLevel().containsKey(Attribute.T_IDLE) && job.jobLevel().containsKey(Attribute.T_IDLE_FACTOR)) {
            Draft.Found second = later(Attribute.T_IDLE, Attribute.T_IDLE_FACTOR);
            problems.add(second.relation().at(), second.attribute().spelling()
                    + ": give tIdle (seconds) or tIdleFactor (times the grow time), not both");
        }
    }

    private Optional<Double> number(Attribute attribute) {
        return Optional.ofNullable(job.jobLevel().get(attribute)).map(Draft.Found::value)
                .map(v -> Double.parseDouble((String) v));
    }

    private SourcePosition where(Attribute attribute) {
        return job.jobLevel().get(attribute).valueAt();
    }

    private Draft.Found later(Attribute a, Attribute b) {
        Draft.Found x = job.jobLevel().get(a);
        Draft.Found y = job.jobLevel().get(b);
        SourcePosition px = x.relation().at();
        SourcePosition py = y.relation().at();
        return px.line() > py.line() || (px.line() == py.line() && px.column() > py.column()) ? x : y;
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
