package koala.fluent.master;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.fluent.Application;
import koala.fluent.FrameworkState;
import koala.fluent.Metrics;
import koala.fluent.FluentWorker;
import koala.fluent.wire.FluentMessages.MasterEvent;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.WorkerView;

/** The master's state as {@code GET /status} shows it, taken under the master's lock. */
final class MasterView {
    private MasterView() {
    }

    static MasterStatus of(long instance, FrameworkState state, Instant now, List<AppBook.Entry> apps,
                           Map<String, String> urls, List<MasterEvent> events, MoveBook moves) {
        Metrics m = state.metrics(now);
        Map<String, Integer> counters = new LinkedHashMap<>();
        counters.put("accepted", m.accepted());
        counters.put("queued", m.queued());
        counters.put("rejected", m.rejected());
        counters.put("startedFromQueue", m.startedFromQueue());
        counters.put("finished", m.finished());
        counters.put("failed", (int) apps.stream().filter(a -> a.state() == AppBook.State.FAILED).count());
        counters.put("waiting", m.waiting());
        counters.put("running", m.running());
        counters.put("suspensions", m.suspended());
        counters.put("resumed", m.resumed());
        counters.put("suspendedNow", m.suspendedNow());
        counters.put("movedApps", m.moved());
        counters.put("moved", moves.movedComponents()); // components, their state carried to another worker
        counters.put("yielded", m.yielded());
        counters.put("lostWithWorker", moves.lostWithWorker()); // applications failed as a worker under them was ended
        return new MasterStatus(instance, state.settings().provisioning().shortName(),
                state.settings().tIdle().toMillis(), state.settings().slotsPerWorker(),
                state.workers().stream().map(w -> view(w, urls.get(w.id()))).toList(),
                state.queue().stream().map(Application::id).toList(), apps.stream().map(AppBook.Entry::view).toList(),
                counters, events);
    }

    private static WorkerView view(FluentWorker w, String url) {
        return new WorkerView(w.id(), url, w.slots(), w.usedSlots(),
                w.running().stream().map(FluentWorker.Running::appId).toList(), w.idleSince(),
                w.suspended().stream().map(FluentWorker.Running::appId).toList());
    }
}
