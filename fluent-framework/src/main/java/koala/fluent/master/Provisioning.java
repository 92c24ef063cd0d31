package koala.fluent.master;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import koala.api.runner.RunnerMessages;
import koala.api.runner.RunnerMessages.GrowResult;
import koala.api.runner.RunnerMessages.Status;
import koala.fluent.FluentWorker;
import koala.fluent.FrameworkSettings;
import koala.fluent.FrameworkState;
import koala.fluent.Metrics;
import koala.fluent.ResizeRequest;
import koala.fluent.wire.FluentMessages.MetricsSample;
import koala.fluent.wire.MasterEventKind;
import koala.provisioning.PolicyKind;

/**
 * The master's side of provisioning: the runner's settings (policy, t_idle, sample period, read
 * from its status each sample so an admin's edit reaches the master), the grow and release
 * requests it asks under OnDemand, the activity of its workers it reports, and the metrics it
 * samples. Every call to the runner goes through the master's {@link RunnerLine}, off the master's
 * loop; what it brings back is taken on the loop, by the continuation each method is given. A
 * refused or failed call is logged and changes nothing.
 */
final class Provisioning {
    private record Activity(boolean busy, Instant since) {
    }

    private final MasterEvents events;
    private final MetricsLog metrics;
    private final int slotsPerWorker;
    private final Map<String, Activity> reported = new HashMap<>();
    private Status status;
    private Instant lastSample = Instant.MIN;
    private Instant lastAsked = Instant.MIN;
    /** Whether a status read is at the runner: a slow one is not asked again meanwhile. */
    private boolean sampling;
    /** What has been said since the releases last went through, so a refusal repeated every second is said once. */
    private final Set<String> told = new HashSet<>();
    private ResizeRequest unasked;
    /** Applications served (0) and rejected (1) over the last five minutes: the figure the master reports. */
    private final koala.arbitration.PerformanceWindow served = new koala.arbitration.PerformanceWindow(FIGURE_WINDOW);
    private int accepted;
    private int rejected;
    static final Duration FIGURE_WINDOW = Duration.ofMinutes(5);

    /**
     * How often one SWC may be suspended for RLs (0: never). With suspension on, suspended SWCs also move
     * to free slots on other workers when theirs stay taken, and workers running only word counts yield
     * them when the grid takes workers back: the simulator's best row ("suspend, resume or move") moves,
     * and resuming in place only delays word counts. One option, not two, also keeps a restarted master
     * replaying its journal under the settings its predecessor decided with.
     */
    private final int maxSuspensions;

    Provisioning(Status first, MasterEvents events, MetricsLog metrics, int slotsPerWorker) {
        this(first, events, metrics, slotsPerWorker, 0);
    }

    Provisioning(Status first, MasterEvents events, MetricsLog metrics, int slotsPerWorker, int maxSuspensions) {
        this.maxSuspensions = maxSuspensions;
        this.status = first;
        this.events = events;
        this.metrics = metrics;
        this.slotsPerWorker = slotsPerWorker;
    }

    /** Under a policy that keeps warm workers the master asks for every idle one (its t_idle is 0): the policy picks. */
    FrameworkSettings settings() {
        PolicyKind policy = policy(status);
        return new FrameworkSettings(policy, slotsPerWorker,
                policy.keepsWarm() ? Duration.ZERO : Duration.ofMillis(status.tIdleMillis()))
                .withSuspension(maxSuspensions, maxSuspensions > 0);
    }

    Status status() {
        return status;
    }

    MetricsLog metrics() {
        return metrics;
    }

    /** Asks the runner for {@code workers}; {@code then} gets the grant (a refused or failed grow grants none). */
    void grow(RunnerLine line, int workers, Consumer<GrowResult> then) {
        line.call(r -> r.grow(workers), (result, e) -> {
            if (e == null) {
                events.add(MasterEventKind.GROWN, "runner: grow " + workers + " → " + result.granted() + " "
                        + result.nodes() + (result.reason() == null ? "" : ": " + result.reason()),
                        Map.of("count", workers, "granted", result.granted(), "nodes", result.nodes()));
                then.accept(result);
            } else {
                events.add(MasterEventKind.GROW_REFUSED, "runner refused the grow of " + workers + ": "
                        + e.getMessage(), Map.of("count", workers));
                then.accept(new GrowResult(workers, 0, List.of(), e.getMessage()));
            }
        });
    }

    /**
     * The release to ask now, if any: under OnDemand the workers idle at least t_idle; under a policy
     * that keeps warm workers, every idle worker, once a sample period. Null when there is none to ask.
     */
    ResizeRequest releaseAsk(FrameworkState state, Instant now) {
        if (state.settings().provisioning().keepsWarm()
                && now.isBefore(lastAsked.plusMillis(Math.max(1000, status.samplePeriodMillis())))) {
            return null;
        }
        ResizeRequest down = state.releaseRequest(now);
        if (down.release().isEmpty()) {
            told.clear();
            return null;
        }
        if (!down.ask()) {
            unasked = down; // logged with the next sample, not every second
            return null;
        }
        lastAsked = now;
        return down;
    }

    /** Asks the runner to release what {@code down} names; {@code then} gets those it released (none when it failed). */
    void release(RunnerLine line, ResizeRequest down, Consumer<List<String>> then) {
        line.call(r -> r.shrink(down.release()), (result, e) -> {
            if (e != null) {
                once("release refused " + down.release(), "runner refused the release of " + down.release() + ": "
                        + e.getMessage());
                then.accept(List.of());
                return;
            }
            if (!result.released().isEmpty()) {
                events.add(MasterEventKind.RELEASED, down.reason() + " → released " + result.released(),
                        Map.of("nodes", result.released()));
                result.released().forEach(reported::remove);
                told.clear();
            }
            result.refused().forEach(r -> once("kept " + r.node(), "runner kept " + r.node() + ": " + r.reason()));
            then.accept(result.released());
        });
    }

    /**
     * Workers the runner refused on the give-back due by {@code refusedFor} (one KOALA ended already, say):
     * not offered again for that ask, so that another is offered, or a worker yields.
     */
    private final java.util.Set<String> refusedBack = new java.util.HashSet<>();
    private java.time.Instant refusedFor;

    /**
     * What the grid's arbitration asks back, the master chooses: its idle workers, longest idle
     * first, as many as asked; with suspension on, when those are too few, workers whose every
     * application is a running word count yield it ({@code yielding}, given how many more are wanted,
     * moves their components elsewhere and returns those now idle, and when the moves are carried out:
     * they are offered only then, so that KOALA ends no node a word count is still being moved off). Other busy ones stay: when the
     * grace is over KOALA ends what is still owed, and what ran there is lost. Those chosen go to
     * {@code leaving} (the master takes them out of its placement before they are offered);
     * {@code then} gets them and those the runner took (both empty when nothing was asked, none was
     * idle or yielded, or the runner did not answer).
     */
    void giveBack(RunnerLine line, FrameworkState state, java.util.function.IntFunction<Yield> yielding,
                  Consumer<List<String>> leaving, BiConsumer<List<String>, List<String>> then) {
        line.call(Runner::giveBack, (ask, failure) -> {
            if (failure != null || ask == null || ask.workers() < 1) {
                then.accept(List.of(), List.of());
                return;
            }
            if (!ask.by().equals(refusedFor)) {
                refusedBack.clear();
                refusedFor = ask.by();
            }
            List<String> idle = new java.util.ArrayList<>(state.workers().stream().filter(FluentWorker::isIdle)
                    .filter(w -> !refusedBack.contains(w.id()))
                    .sorted(java.util.Comparator.comparing(FluentWorker::idleSince).thenComparing(FluentWorker::id))
                    .limit(ask.workers()).map(FluentWorker::id).toList());
            java.util.concurrent.CompletableFuture<Void> moved = java.util.concurrent.CompletableFuture.completedFuture(null);
            if (idle.size() < ask.workers() && state.settings().maxSuspensions() > 0
                    && state.settings().moveSuspended()) {
                Yield yielded = yielding.apply(ask.workers() - idle.size());
                idle.addAll(yielded.workers());
                moved = yielded.moved();
            }
            if (idle.isEmpty()) {
                once("give back " + ask.by(), MasterEventKind.NOTE, "asked to give back " + ask.workers() + " worker"
                        + (ask.workers() == 1 ? "" : "s") + " by " + ask.by() + " (" + ask.reason() + "): none idle yet");
                then.accept(List.of(), List.of());
                return;
            }
            leaving.accept(idle);
            moved.thenRun(() -> line.call(r -> r.giveBack(idle), (result, e) -> {
                if (e != null) {
                    once("give back refused " + idle, "runner refused to give back " + idle + ": " + e.getMessage());
                    then.accept(idle, List.of());
                    return;
                }
                result.refused().forEach(r -> refusedBack.add(r.node()));
                if (!result.released().isEmpty()) {
                    events.add(MasterEventKind.RELEASED, "gave back " + result.released() + " at the grid's request ("
                            + ask.reason() + ")", Map.of("nodes", result.released()));
                    result.released().forEach(reported::remove);
                }
                then.accept(idle, result.released());
            }));
        });
    }

    /** Workers that yielded their word counts, and when those have moved off them (completed on the master's loop). */
    record Yield(List<String> workers, java.util.concurrent.CompletableFuture<Void> moved) {
    }

    /** Tells the runner each worker's activity, when it changed since last told (or since a report it did not take). */
    void reportActivity(RunnerLine line, List<FluentWorker> workers) {
        for (FluentWorker w : workers) {
            Activity now = new Activity(!w.isIdle(), w.isIdle() ? w.idleSince() : null);
            if (now.equals(reported.get(w.id()))) {
                continue;
            }
            reported.put(w.id(), now);
            line.tell(r -> r.activity(w.id(), now.busy(), now.since()), e -> {
                reported.remove(w.id(), now);
                once("activity " + w.id(), "runner did not take " + w.id() + "'s activity: " + e.getMessage());
            });
        }
    }

    /**
     * Each sample period: the runner's status (its settings may have changed), then, on the
     * master's loop, a metrics sample at {@code clock}'s time and the workers the runner no longer
     * has among those {@code registered} then, handed to {@code lost}.
     */
    void sample(RunnerLine line, FrameworkState state, Instant now, Supplier<Instant> clock,
                Supplier<Set<String>> registered, Consumer<List<String>> lost) {
        if (sampling || now.isBefore(lastSample.plusMillis(Math.max(1000, status.samplePeriodMillis())))) {
            return;
        }
        lastSample = now;
        sampling = true;
        if (unasked != null) {
            once("unasked " + unasked.release(), MasterEventKind.RESIZE_REPORTED, unasked.reason());
            unasked = null;
        }
        line.call(Runner::status, (read, e) -> {
            sampling = false;
            if (e != null) {
                events.add("runner status unavailable: " + e.getMessage());
                return;
            }
            status = read;
            lost.accept(sampled(line, state, clock.get(), registered.get()));
        });
    }

    private List<String> sampled(RunnerLine line, FrameworkState state, Instant now, Set<String> registered) {
        FrameworkSettings next = settings();
        if (!next.equals(state.settings())) {
            events.add("settings from the runner: " + next.provisioning().shortName() + ", t_idle "
                    + next.tIdle().toMillis() / 1000.0 + " s");
            state.retune(next);
        }
        List<RunnerMessages.Entity> workers = status.role("worker");
        Metrics m = state.metrics(now);
        reportFigure(line, m, now);
        double cpu = workers.stream().filter(w -> w.state().equals("RUNNING"))
                .mapToDouble(RunnerMessages.Entity::cpuPercent).average().orElse(0);
        int busy = (int) state.workers().stream().filter(w -> !w.isIdle()).count();
        metrics.sample(new MetricsSample(now, workers.size(), busy, cpu, m.accepted(), m.queued(), m.rejected(),
                m.finished(), m.waiting(), m.running()), m.workerTime());
        Set<String> held = Set.copyOf(workers.stream().map(RunnerMessages.Entity::node).toList());
        return registered.stream().filter(node -> !held.contains(node)).toList();
    }

    /**
     * The figure for the grid's arbitration: 1 / (1 − the share of applications rejected over the
     * window), 1 when none came ({@link koala.arbitration.PerformanceWindow#stretch}); and that share
     * itself, the reject rate the scheduler's metrics show.
     */
    private void reportFigure(RunnerLine line, Metrics m, Instant now) {
        for (int i = accepted; i < m.accepted(); i++) {
            served.record(now, 0);
        }
        for (int i = rejected; i < m.rejected(); i++) {
            served.record(now, 1);
        }
        accepted = Math.max(accepted, m.accepted());
        rejected = Math.max(rejected, m.rejected());
        double rejectRate = served.mean(now).orElse(0);
        double figure = koala.arbitration.PerformanceWindow.stretch(rejectRate);
        line.tell(r -> r.figure(figure, rejectRate), e -> once("figure", "runner did not take the figure " + figure + ": "
                + e.getMessage()));
    }

    /** Says {@code event} unless what it is {@code about} was said since the releases last went through. */
    private void once(String about, String event) {
        once(about, MasterEventKind.NOTE, event);
    }

    private void once(String about, MasterEventKind kind, String event) {
        if (told.add(about)) {
            events.add(kind, event, Map.of());
        }
    }

    static PolicyKind policy(Status status) {
        try {
            return PolicyKind.valueOf(status.policy().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            return PolicyKind.byName(status.policy()).orElse(PolicyKind.ONDEMAND);
        }
    }
}
