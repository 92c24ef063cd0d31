package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.Set;
import koala.arbitration.PerformanceWindow;
import koala.arbitration.Tenant;
import koala.fluent.AppOutcome;
import koala.fluent.Application;
import koala.fluent.FrameworkSettings;
import koala.fluent.FrameworkState;
import koala.fluent.FluentJob;
import koala.fluent.PlacementOutcome;
import koala.fluent.ResizeRequest;
import koala.fluent.Resumed;
import koala.fluent.FluentWorker;
import koala.provisioning.ProvisioningSettings;
import koala.provisioning.WorkerDecision;
import koala.provisioning.WorkerPolicy;

/**
 * One simulated framework instance: the reference framework's master ({@link FrameworkState}),
 * its runner's book ({@link RunnerBook}) and its provisioning policy ({@link WorkerPolicy#of}),
 * driven by events in virtual time. The simulator decides nothing itself; it carries out what the
 * master and the policy decide, as the master process and the runner do:
 * <ul>
 *   <li>A job arrives. If the policy lets the framework resize, the master computes the workers it
 *       lacks ({@link FrameworkState#growRequest}) and asks; the policy grants (up to F_max and the
 *       grid's idle nodes) or refuses; the grid places the grant; the job is submitted once the
 *       new workers have reported in, or at once when nothing was granted. Jobs are handled first
 *       come, first served: one arriving while an earlier one waits for its grow waits behind it,
 *       then asks for what it lacks then. Under the other policies a job is submitted on arrival.</li>
 *   <li>Each sample period: every running worker reports its CPU (the sum of what runs on it at
 *       that instant); the policy decides on the sample ({@link WorkerPolicy#onSample}); and if the
 *       framework resizes and no job waits for its grow (the idle workers are the ones such a job
 *       counted on), the master asks to release its idle workers (its t_idle is 0: it asks
 *       for all of them and the policy releases those idle at least the policy's t_idle, as the
 *       runner's view has them).</li>
 *   <li>An application ends when its duration is up; queued SWCs then start as the master says.</li>
 * </ul>
 * A release that names a worker the master has busy is not carried out (it cannot happen with
 * CPU loads of at least 5%, the runner's busy threshold; it is counted in case a profile goes lower).
 *
 * <p>On a shared grid ({@link GridArbiter}) a grow is bounded by the policy's F_max only and then
 * answered by the arbiter: nodes now, nodes promised (the job waits for them too), the rest
 * refused. The arbiter may take nodes back: idle workers it names go at once; asked to shrink, the
 * master gives back idle workers, longest idle first, as they come, until the deadline; workers
 * KOALA ends itself are lost with what runs on them ({@link FrameworkState#lose}) — an RL is lost,
 * an SWC is submitted again by its user at once (its slowdown counts from its first arrival). An
 * instance that keeps its initial workers (Static, Proactive) asks for the ones KOALA took back as
 * its {@link Simulation.FloorKeeping} says: by default one at a sample, and only when none of its
 * workers is idle by the runner's samples and none is starting; or all of them at every sample, as
 * {@code FrameworkRunner.keepFloors} does today. It reports the worker nodes its queued SWCs would
 * use ({@link #queued}), which the arbiter reads when told to. It reports its figure for the
 * performance policy: {@link PerformanceWindow#stretch} of the share of RLs lost (rejected or
 * killed) over the window, or the mean slowdown of its SWCs (finished in the window, or waiting
 * now), the larger if both.
 */
final class Instance {
    private final String name;
    private final EventQueue events;
    private final SimGrid grid;
    private final Workload workload;
    private final ProvisioningSettings settings;
    private final WorkerPolicy policy;
    private final FrameworkState master;
    private final RunnerBook book;
    private final GrowDelay delay;
    private final Random random;
    private final Accounting account = new Accounting();
    private final Deque<FluentJob> pending = new ArrayDeque<>();
    private final Set<String> awaited = new HashSet<>();
    private final Map<String, Running> apps = new HashMap<>();
    private final GridArbiter arbiter;
    private final Simulation.FloorKeeping floorKeeping;
    private final PerformanceWindow lostWindow;
    private final PerformanceWindow slowdownWindow;
    private final Map<String, Instant> arrivedAt = new HashMap<>();
    private long submittedApps;
    private long busyReleasesRefused;
    private int nextJob;
    private long runs;
    private boolean headWaits;
    private int owed;
    private int giveBack;
    private Instant giveBackUntil = Instant.MIN;
    private long killed;
    private long takenBack;
    private long resubmitted;
    private double usefulNodeSeconds;
    private double slowdownSum;
    private long slowdowns;
    private long rls;
    private long rlStarted;
    private double rlStartSeconds;
    private long swcsFinished;
    private double swcCompletionSeconds;
    private long yielded;
    private long yieldedSlots;
    private long lostSwcSlots;

    /**
     * An application as the simulator runs it: its {@code run} (a later finish event of an earlier
     * run is stale), the time it was suspended before the present suspension, and since when it is
     * suspended (null while it runs).
     */
    private record Running(Application app, Instant start, long run, Duration paused, Instant pausedAt) {
        Running(Application app, Instant start, long run) {
            this(app, start, run, Duration.ZERO, null);
        }

        /** How long it has run (not suspended) from its start to {@code until}, at most its duration. */
        long workedMillis(Instant until) {
            long held = Duration.between(start, until).toMillis() - paused.toMillis()
                    - (pausedAt == null ? 0 : Math.max(0, Duration.between(pausedAt, until).toMillis()));
            return Math.max(0, Math.min(held, app.duration().toMillis()));
        }
    }

    Instance(String name, EventQueue events, SimGrid grid, Workload workload, WorkerPolicy policy,
             GrowDelay delay, String home, long seed, GridArbiter arbiter, Duration figureWindow,
             Simulation.FloorKeeping floorKeeping, Simulation.Suspension suspension) {
        this.name = name;
        this.arbiter = arbiter;
        this.floorKeeping = floorKeeping;
        this.lostWindow = new PerformanceWindow(figureWindow);
        this.slowdownWindow = new PerformanceWindow(figureWindow);
        this.events = events;
        this.grid = grid;
        this.workload = workload;
        this.settings = policy.settings();
        this.policy = policy;
        this.master = new FrameworkState(new FrameworkSettings(settings.policy(), 8, Duration.ZERO)
                .withSuspension(suspension.maxTimes(), suspension.moves()), events.instant());
        this.book = new RunnerBook(home);
        this.delay = delay;
        this.random = new Random(seed);
    }

    /** Deploys the initial workers (already running when the workload starts) and schedules the first events. */
    void start() {
        Instant now = events.instant();
        List<SimGrid.Node> initial = grid.grant(settings.initialWorkers());
        for (SimGrid.Node node : initial) {
            book.starting(node, now);
            book.reportedIn(node.id(), now, false);
            master.addWorker(node.id(), now);
        }
        nextArrival();
        events.after(settings.samplePeriod(), this::sample);
    }

    String name() {
        return name;
    }

    private void nextArrival() {
        if (nextJob < workload.jobs().size() && workload.jobs().get(nextJob).submittedAt().isBefore(workload.end())) {
            FluentJob job = workload.jobs().get(nextJob++);
            events.at(job.submittedAt(), () -> {
                arrive(job);
                nextArrival();
            });
        }
    }

    private void arrive(FluentJob job) {
        job.apps().forEach(a -> arrivedAt.putIfAbsent(a.id(), job.submittedAt()));
        pending.addLast(job);
        if (pending.size() == 1) {
            serveHead();
        }
    }

    /** Asks for the head job's grow, or submits it; goes on down the line until a job waits for workers. */
    private void serveHead() {
        Instant now = events.instant();
        while (!pending.isEmpty()) {
            FluentJob head = pending.peekFirst();
            // the master computes the request under every policy, but asks only when the framework resizes
            ResizeRequest ask = settings.policy().frameworkResizes() ? master.growRequest(head) : null;
            if (ask != null && ask.ask()) {
                WorkerDecision d = policy.onGrowRequest(book.layer(arbiter == null ? grid.idleNodes() : -1), ask.grow());
                if (d instanceof WorkerDecision.Grow g) {
                    List<SimGrid.Node> nodes = grow(g.workers(), now);
                    if (!nodes.isEmpty() || owed > 0) {
                        nodes.forEach(n -> awaited.add(n.id()));
                        headWaits = true;
                        return;
                    }
                }
            }
            submit(pending.pollFirst(), now);
        }
    }

    /** Grows by up to {@code workers}: what the grid grants (alone, or through the arbiter, which may also promise). */
    private List<SimGrid.Node> grow(int workers, Instant now) {
        List<SimGrid.Node> nodes = arbiter == null ? grid.grant(workers) : arbiter.grow(this, workers);
        startWorkers(nodes, now);
        return nodes;
    }

    private void startWorkers(List<SimGrid.Node> nodes, Instant now) {
        if (!nodes.isEmpty()) {
            account.grew();
        }
        for (SimGrid.Node node : nodes) {
            book.starting(node, now);
            events.after(delay.draw(random), () -> join(node.id()));
        }
    }

    private void join(String id) {
        if (book.requestedAt(id) == null) {
            return;
        }
        Instant now = events.instant();
        account.joined(book.reportedIn(id, now, true));
        again(master.join(id, master.settings().slotsPerWorker(), now), now);
        if (awaited.remove(id)) {
            submitHeadWhenReady(now);
        }
    }

    /** The head job waited for its grow: submitted once every worker granted for it reported in and none is owed. */
    private void submitHeadWhenReady(Instant now) {
        if (headWaits && awaited.isEmpty() && owed == 0) {
            headWaits = false;
            submit(pending.pollFirst(), now);
            serveHead();
        }
    }

    private void submit(FluentJob job, Instant now) {
        PlacementOutcome out = master.submit(job, now);
        submittedApps += job.apps().size();
        account.submitted(job.submittedAt(), now, job.apps().size());
        for (AppOutcome o : out.apps()) {
            if (o.verdict() == AppOutcome.Verdict.REJECTED) {
                lostWindow.record(now, 1);
            }
            if (o.app().isRl()) {
                rls++;
            }
        }
        for (AppOutcome o : out.with(AppOutcome.Verdict.PLACED)) {
            o.suspended().forEach(x -> suspend(x.appId(), now));
        }
        started(out.with(AppOutcome.Verdict.PLACED), now);
    }

    private void started(List<AppOutcome> placed, Instant now) {
        for (AppOutcome o : placed) {
            Application app = o.app();
            long run = ++runs;
            apps.put(app.id(), new Running(app, now, run));
            if (app.isRl()) {
                rlStarted++;
                rlStartSeconds += Duration.between(arrivedAt.get(app.id()), now).toMillis() / 1000.0;
            }
            events.at(now.plus(app.duration()), () -> finish(app.id(), run));
        }
    }

    /** An SWC suspended for an RL: its finish event goes stale; it ends once resumed, as much later as it waited. */
    private void suspend(String appId, Instant now) {
        Running r = apps.get(appId);
        apps.put(appId, new Running(r.app(), r.start(), ++runs, r.paused(), now));
    }

    /** Suspended SWCs that resumed, then SWCs started from the queue. */
    private void again(FrameworkState.Started started, Instant now) {
        resumed(started.resumed(), now);
        started(started.fromQueue(), now);
    }

    private void resumed(List<Resumed> resumed, Instant now) {
        for (Resumed x : resumed) {
            Running r = apps.get(x.appId());
            long run = ++runs;
            Running back = new Running(r.app(), r.start(), run, r.paused().plus(Duration.between(r.pausedAt(), now)), null);
            apps.put(x.appId(), back);
            events.at(back.start().plus(back.app().duration()).plus(back.paused()), () -> finish(x.appId(), run));
        }
    }

    private void finish(String appId, long run) {
        Running r = apps.get(appId);
        if (r == null || r.run() != run) {
            return;
        }
        Instant now = events.instant();
        apps.remove(appId);
        account.used(nodePercentSeconds(r, now));
        usefulNodeSeconds += nodeSeconds(r, now);
        if (r.app().isRl()) {
            lostWindow.record(now, 0);
        } else {
            double slowdown = slowdown(r.app(), now);
            slowdownSum += slowdown;
            slowdowns++;
            slowdownWindow.record(now, slowdown);
            swcsFinished++;
            swcCompletionSeconds += Duration.between(arrivedAt.get(appId), now).toMillis() / 1000.0;
        }
        again(master.end(appId, now), now);
        giveBackIdle(now);
    }

    /** (finished − first arrival) / duration. */
    private double slowdown(Application app, Instant finished) {
        return Duration.between(arrivedAt.get(app.id()), finished).toMillis() / (double) app.duration().toMillis();
    }

    /** CPU an application used from its start to {@code until}, in percent of a node × seconds. */
    private double nodePercentSeconds(Running r, Instant until) {
        double perComponent = r.app().isRl() ? workload.cpuSeconds(r.app(), r.start(), until)
                : r.app().cpuPercent() * r.workedMillis(until) / 1000.0;
        return r.app().isRl() ? perComponent : perComponent * r.app().components() / master.settings().slotsPerWorker();
    }

    /** Node-time an application held from its start to {@code until}: an RL its worker, an SWC its share of slots. */
    private double nodeSeconds(Running r, Instant until) {
        double seconds = r.workedMillis(until) / 1000.0;
        return r.app().isRl() ? seconds : seconds * r.app().components() / master.settings().slotsPerWorker();
    }

    private void sample() {
        Instant now = events.instant();
        Map<String, FluentWorker> inMaster = new HashMap<>();
        master.workers().forEach(w -> inMaster.put(w.id(), w));
        double cpuUsed = 0;
        int busy = 0;
        for (FluentWorker w : inMaster.values()) {
            double cpu = cpu(w, now);
            book.sampled(w.id(), cpu, now);
            cpuUsed += cpu / 100;
            busy += w.isIdle() ? 0 : 1;
        }
        account.point(Workload.START, now, book.size(), busy, cpuUsed);
        act(policy.onSample(book.layer(arbiter == null ? grid.idleNodes() : -1), now), inMaster, now);
        // as the real master: while a job waits for its grow, the idle workers are the ones it counted on
        if (settings.policy().frameworkResizes() && !headWaits) {
            List<String> idle = master.releaseRequest(now).release();
            if (!idle.isEmpty()) {
                act(policy.onShrinkRequest(book.layer(-1), idle, now), inMaster, now);
            }
        }
        giveBackIdle(now);
        replaceLost(now);
        events.after(settings.samplePeriod(), this::sample);
    }

    private double cpu(FluentWorker w, Instant now) {
        double sum = 0;
        for (FluentWorker.Running r : w.running()) {
            Running app = apps.get(r.appId());
            if (app.pausedAt() != null) {
                continue; // a suspended SWC's components elsewhere hold their slots and state, not the CPU
            }
            double level = workload.cpuAt(app.app(), app.start(), now);
            sum += app.app().isRl() ? level : level * r.slots() / w.slots();
        }
        return Math.min(100, sum);
    }

    private void act(WorkerDecision decision, Map<String, FluentWorker> inMaster, Instant now) {
        if (decision instanceof WorkerDecision.Grow g) {
            grow(g.workers(), now);
        } else if (decision instanceof WorkerDecision.Release r) {
            for (String id : r.workers()) {
                FluentWorker w = inMaster.get(id);
                if (w == null || !w.isIdle()) {
                    busyReleasesRefused++;
                    continue;
                }
                master.removeWorker(id, now);
                giveNode(id, now);
            }
        }
    }

    private void giveNode(String id, Instant now) {
        RunnerBook.Released gone = book.remove(id);
        grid.release(gone.node());
        account.released(gone.requestedAt(), now);
    }

    // ---- on a shared grid: what the arbiter asks of this instance, and what it tells the arbiter

    /** This instance as the arbiter sees it: its runner's view of its workers, its claim, its figure. */
    Tenant tenant(int asking) {
        Tenant t = Tenant.of(name, settings, book.layer(-1)).asking(asking).queuing(queued());
        OptionalDouble figure = figure(events.instant());
        return figure.isPresent() ? t.reporting(figure.getAsDouble()) : t;
    }

    /**
     * Worker nodes its queued work would use beyond the workers it holds, starts and is owed, within
     * F_max: the slots of the SWCs waiting in the master's queue less the free slots of its workers,
     * in whole workers (an SWC's components may spread over workers, as the master places them). The
     * jobs waiting behind a grow are not counted: the head one has asked.
     */
    int queued() {
        int slotsQueued = master.queue().stream().mapToInt(Application::components).sum();
        if (slotsQueued == 0) {
            return 0;
        }
        int freeSlots = master.workers().stream().mapToInt(FluentWorker::freeSlots).sum();
        int perWorker = master.settings().slotsPerWorker();
        int workers = (Math.max(0, slotsQueued - freeSlots) + perWorker - 1) / perWorker;
        int starting = book.size() - master.workers().size();
        return Math.max(0, Math.min(workers - starting - owed, settings.fMax() - book.size() - owed));
    }

    /** The figure it reports: the stretch of its RLs lost, the slowdown of its SWCs, the larger if both. */
    OptionalDouble figure(Instant now) {
        OptionalDouble lost = lostWindow.mean(now);
        List<Double> waits = new java.util.ArrayList<>();
        OptionalDouble done = slowdownWindow.mean(now);
        master.queue().forEach(a -> waits.add(waitingSlowdown(a, now)));
        pending.forEach(j -> j.apps().stream().filter(a -> !a.isRl()).forEach(a -> waits.add(waitingSlowdown(a, now))));
        OptionalDouble swc = OptionalDouble.empty();
        if (done.isPresent() || !waits.isEmpty()) {
            int n = slowdownWindow.size();
            double sum = (done.isPresent() ? done.getAsDouble() * n : 0) + waits.stream().mapToDouble(d -> d).sum();
            swc = OptionalDouble.of(sum / (n + waits.size()));
        }
        OptionalDouble rl = lost.isPresent() ? OptionalDouble.of(PerformanceWindow.stretch(lost.getAsDouble()))
                : OptionalDouble.empty();
        if (rl.isPresent() && swc.isPresent()) {
            return OptionalDouble.of(Math.max(rl.getAsDouble(), swc.getAsDouble()));
        }
        return rl.isPresent() ? rl : swc;
    }

    /** The slowdown an application waiting now would have if it started now. */
    private double waitingSlowdown(Application app, Instant now) {
        Instant arrived = arrivedAt.getOrDefault(app.id(), now);
        return (Duration.between(arrived, now).toMillis() + app.duration().toMillis()) / (double) app.duration().toMillis();
    }

    /** Nodes taken back for this instance, granted now: they start as a grow's, and a waiting job waits for them too. */
    void deliver(List<SimGrid.Node> nodes) {
        startWorkers(nodes, events.instant());
        if (headWaits) {
            nodes.forEach(n -> awaited.add(n.id()));
        }
    }

    /**
     * The nodes the arbiter owes this instance now (taken back for it, not yet granted): a waiting
     * job waits for them; once none is owed (granted, or refused) it goes ahead when its workers are in.
     */
    void owed(int nodes) {
        int before = owed;
        owed = nodes;
        if (before > 0 && nodes == 0 && headWaits) {
            // after the arbiter's decision is carried out: submitting may ask for another grow
            events.at(events.instant(), () -> submitHeadWhenReady(events.instant()));
        }
    }

    /** Idle workers taken back: ended at once; one the master has busy by now stays (the arbiter ends it after the grace). */
    void releaseIdle(List<String> ids) {
        Instant now = events.instant();
        for (String id : ids) {
            Optional<FluentWorker> w = master.workers().stream().filter(x -> x.id().equals(id)).findFirst();
            if (w.isPresent() && w.get().isIdle()) {
                master.removeWorker(id, now);
                giveNode(id, now);
                takenBack++;
            }
        }
    }

    /** Asked to give back {@code nodes} workers by {@code deadline}: the master gives idle ones as they come. */
    void askShrink(int nodes, Instant deadline) {
        giveBack += nodes;
        giveBackUntil = deadline;
        giveBackIdle(events.instant());
    }

    private void giveBackIdle(Instant now) {
        if (giveBack == 0) {
            return;
        }
        if (!now.isBefore(giveBackUntil)) {
            giveBack = 0;
            return;
        }
        List<String> idle = master.workers().stream().filter(FluentWorker::isIdle)
                .sorted(java.util.Comparator.comparing(FluentWorker::idleSince).thenComparing(FluentWorker::id,
                        koala.provisioning.NaturalOrder.IDS)).map(FluentWorker::id).limit(giveBack).toList();
        for (String id : idle) {
            master.removeWorker(id, now);
            giveNode(id, now);
            giveBack--;
            takenBack++;
        }
    }

    /** The grace period is over: KOALA ends these workers, busy or not; what runs on them is lost. */
    void endWorkers(List<String> ids) {
        Instant now = events.instant();
        for (String id : ids) {
            if (master.workers().stream().noneMatch(w -> w.id().equals(id))) {
                continue;
            }
            Optional<List<Resumed>> yield = master.yieldWorker(id, now);
            if (yield.isPresent()) {
                // its batch work moved to the other workers: the worker leaves idle, nothing is lost
                yielded++;
                yieldedSlots += yield.get().stream().mapToInt(x -> x.to().stream().mapToInt(a -> a.slots()).sum()).sum();
                giveNode(id, now); // the master has let it go already
                takenBack++;
                continue;
            }
            FrameworkState.Lost lost = master.lose(id, now);
            giveNode(id, now);
            takenBack++;
            for (Application app : lost.failed()) {
                Running r = apps.remove(app.id());
                account.used(nodePercentSeconds(r, now));
                killed++;
                if (!app.isRl()) {
                    lostSwcSlots += app.components();
                }
                if (app.isRl()) {
                    lostWindow.record(now, 1);
                } else {
                    resubmitted++;
                    // its user submits it again, once the arbiter's decision is carried out
                    FluentJob again = new FluentJob("again-" + app.id() + "-" + resubmitted, List.of(app), now);
                    events.at(now, () -> arrive(again));
                }
            }
            resumed(lost.resumed(), now);
            started(lost.started(), now);
        }
    }

    /**
     * Static and Proactive keep their initial workers: the runner asks for the ones KOALA took back.
     * {@link Simulation.FloorKeeping#AT_ONCE AT_ONCE}: all of them at every sample.
     * {@link Simulation.FloorKeeping#WHEN_NEEDED WHEN_NEEDED}: one at a sample, only when every
     * worker is busy by the runner's samples and none is starting — an idle reserve that KOALA took
     * for others is not taken back from them. (Workers lost otherwise, to a failure or a qdel, are
     * replaced at once by the real runner; the simulator loses workers only to KOALA.)
     */
    private void replaceLost(Instant now) {
        int missing = settings.initialWorkers() - book.size() - owed;
        if (arbiter == null || !settings.policy().keepsInitialWorkers() || missing <= 0) {
            return;
        }
        if (floorKeeping == Simulation.FloorKeeping.AT_ONCE) {
            startWorkers(arbiter.grow(this, missing), now);
            return;
        }
        koala.provisioning.WorkerLayer layer = book.layer(-1);
        if (layer.starting() == 0 && layer.workers().stream().allMatch(koala.provisioning.Worker::busy)) {
            startWorkers(arbiter.grow(this, 1), now);
        }
    }

    /** The run's figures at {@code end}: workers still held count up to it, running applications their CPU so far. */
    RunMetrics metrics(Instant end) {
        for (var r : apps.values()) {
            account.used(nodePercentSeconds(r, end));
        }
        for (var report : book.reports()) {
            account.released(book.requestedAt(report.id()), end);
            if (!report.running()) {
                account.joined(Duration.between(book.requestedAt(report.id()), end));
            }
        }
        return account.metrics(name, submittedApps, master.metrics(end));
    }

    /**
     * The figures of a shared grid at {@code end} (after {@link #metrics}): applications running then
     * count their node-time so far and their slowdown as if they finish; waiting SWCs at least the
     * slowdown they have had (their wait so far and a run).
     */
    TenantMetrics tenantMetrics(RunMetrics run, Instant end) {
        double useful = usefulNodeSeconds;
        double sum = slowdownSum;
        long n = slowdowns;
        for (Running r : apps.values()) {
            useful += nodeSeconds(r, end);
            if (!r.app().isRl()) {
                sum += slowdown(r.app(), r.start().plus(r.app().duration()));
                n++;
            }
        }
        List<Application> waiting = new java.util.ArrayList<>(master.queue());
        pending.forEach(j -> j.apps().stream().filter(a -> !a.isRl()).forEach(waiting::add));
        for (Application a : waiting) {
            sum += waitingSlowdown(a, end);
            n++;
        }
        long lost = run.rejected() + killed - resubmitted;
        long offered = run.applications() - resubmitted;
        return new TenantMetrics(name, run, killed, offered == 0 ? 0 : 100.0 * lost / offered, n == 0 ? Double.NaN
                : sum / n, n, useful / 3600, takenBack);
    }

    /** The figures of the RL / SWC mix with and without suspension, at {@code end} (after {@link #metrics}). */
    MixFigures mixFigures(RunMetrics run, Instant end) {
        koala.fluent.Metrics m = master.metrics(end);
        long swcsUnfinished = apps.values().stream().filter(r -> !r.app().isRl()).count()
                + master.queue().size() + pending.stream().mapToLong(j -> j.apps().stream().filter(a -> !a.isRl()).count()).sum();
        return new MixFigures(rls, run.rejected(), rlStarted == 0 ? 0 : rlStartSeconds / rlStarted, swcsFinished,
                swcsUnfinished, swcsFinished == 0 ? 0 : swcCompletionSeconds / swcsFinished, run.allocatedHours(),
                m.suspended(), m.resumed(), m.moved(), takenBack, killed, yielded, yieldedSlots, lostSwcSlots);
    }

    long busyReleasesRefused() {
        return busyReleasesRefused;
    }
}
