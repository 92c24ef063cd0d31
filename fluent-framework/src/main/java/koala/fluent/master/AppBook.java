package koala.fluent.master;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.fluent.AppOutcome;
import koala.fluent.Assignment;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;

/** Every application the master has been given, with what became of it, by id in submission order. */
final class AppBook {
    enum State { QUEUED, RUNNING, REJECTED, FINISHED, FAILED }

    /**
     * One application: how it was asked for, its verdict at submission, where and how it runs now.
     *
     * @param components a word count's {@link Layout}: the worker of each component by slot (null for an
     *                   RL, or one not started)
     */
    record Entry(String id, String job, AppRequest request, JobIntake.Expected expected, String verdict, State state,
                 List<String> workers, String orchestrator, String reason, Map<String, Object> result,
                 List<String> components) {

        Entry with(State next, List<String> where, String orchestratorNode, String why, Map<String, Object> out) {
            return new Entry(id, job, request, expected, verdict, next, where, orchestratorNode, why, out, components);
        }

        /** Where a running word count's components are; empty for an RL, or one kept by an older master. */
        Optional<Layout> layout() {
            return components == null ? Optional.empty() : Optional.of(new Layout(components));
        }

        AppReply view() {
            return new AppReply(id, request.kind(), verdict, state.name(), workers, orchestrator, reason, result);
        }

        boolean ended() {
            return state == State.REJECTED || state == State.FINISHED || state == State.FAILED;
        }
    }

    private final Map<String, Entry> apps = new LinkedHashMap<>();

    /** An application's verdict at submission: PLACED (running), QUEUED or REJECTED. */
    void submitted(String job, AppOutcome outcome, AppRequest request, JobIntake.Expected expected) {
        State state = switch (outcome.verdict()) {
            case PLACED -> State.RUNNING;
            case QUEUED -> State.QUEUED;
            case REJECTED -> State.REJECTED;
        };
        String id = outcome.app().id();
        apps.put(id, new Entry(id, job, request, expected, outcome.verdict().name(), state, workers(outcome),
                null, outcome.reason(), Map.of(), layout(request, outcome)));
    }

    /** An entry as a journal's snapshot kept it. */
    void restore(Entry entry) {
        apps.put(entry.id(), entry);
    }

    void started(AppOutcome fromQueue) {
        Entry e = get(fromQueue.app().id());
        apps.put(e.id(), new Entry(e.id(), e.job(), e.request(), e.expected(), e.verdict(), State.RUNNING,
                workers(fromQueue), e.orchestrator(), fromQueue.reason(), e.result(), layout(e.request(), fromQueue)));
    }

    /** A word count's components moved: it runs where {@code after} says. */
    void moved(String app, Layout after) {
        Entry e = get(app);
        apps.put(app, new Entry(e.id(), e.job(), e.request(), e.expected(), e.verdict(), e.state(), after.distinct(),
                e.orchestrator(), e.reason(), e.result(), after.workers()));
    }

    void orchestrator(String app, String node) {
        Entry e = get(app);
        apps.put(app, e.with(e.state(), e.workers(), node, e.reason(), e.result()));
    }

    void ended(String app, State state, String reason, Map<String, Object> result) {
        Entry e = get(app);
        apps.put(app, e.with(state, e.workers(), e.orchestrator(), reason, result));
    }

    Entry get(String app) {
        return find(app).orElseThrow(() -> new IllegalArgumentException("no application " + app));
    }

    Optional<Entry> find(String app) {
        return Optional.ofNullable(apps.get(app));
    }

    List<Entry> ofJob(String job) {
        return apps.values().stream().filter(e -> e.job().equals(job)).toList();
    }

    List<Entry> all() {
        return List.copyOf(apps.values());
    }

    private static List<String> layout(AppRequest request, AppOutcome outcome) {
        boolean swc = request != null && "swc".equals(request.kind());
        return swc && outcome.verdict() == AppOutcome.Verdict.PLACED ? Layout.of(outcome.assignments()).workers()
                : null;
    }

    private static List<String> workers(AppOutcome outcome) {
        return outcome.assignments().stream().map(Assignment::workerId).toList();
    }
}
