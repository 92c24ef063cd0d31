package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import koala.fluent.AppOutcome;
import koala.fluent.Application;
import koala.fluent.FrameworkSettings;
import koala.fluent.FrameworkState;
import koala.fluent.Job;
import koala.fluent.PlacementOutcome;
import koala.fluent.ResizeRequest;
import koala.fluent.Worker;
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
    private final Deque<Job> pending = new ArrayDeque<>();
    private final Set<String> awaited = new HashSet<>();
    private final Map<String, Running> apps = new HashMap<>();
    private long submittedApps;
    private long busyReleasesRefused;
    private int nextJob;

    private record Running(Application app, Instant start) {
    }

    Instance(String name, EventQueue events, SimGrid grid, Workload workload, WorkerPolicy policy,
             GrowDelay delay, String home, long seed) {
        this.name = name;
        this.events = events;
        this.grid = grid;
        this.workload = workload;
        this.settings = policy.settings();
        this.policy = policy;
        this.master = new FrameworkState(new FrameworkSettings(settings.policy(), 8, Duration.ZERO), events.instant());
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

    private void nextArrival() {
        if (nextJob < workload.jobs().size() && workload.jobs().get(nextJob).submittedAt().isBefore(workload.end())) {
            Job job = workload.jobs().get(nextJob++);
            events.at(job.submittedAt(), () -> {
                arrive(job);
                nextArrival();
            });
        }
    }

    private void arrive(Job job) {
        pending.addLast(job);
        if (pending.size() == 1) {
            serveHead();
        }
    }

    /** Asks for the head job's grow, or submits it; goes on down the line until a job waits for workers. */
    private void serveHead() {
        Instant now = events.instant();
        while (!pending.isEmpty()) {
            Job head = pending.peekFirst();
            // the master computes the request under every policy, but asks only when the framework resizes
            ResizeRequest ask = settings.policy().frameworkResizes() ? master.growRequest(head) : null;
            if (ask != null && ask.ask()) {
                WorkerDecision d = policy.onGrowRequest(book.layer(grid.idleNodes()), ask.grow());
                if (d instanceof WorkerDecision.Grow g) {
                    List<SimGrid.Node> nodes = grow(g.workers(), now);
                    if (!nodes.isEmpty()) {
                        nodes.forEach(n -> awaited.add(n.id()));
                        return;
                    }
                }
            }
            submit(pending.pollFirst(), now);
        }
    }

    private List<SimGrid.Node> grow(int workers, Instant now) {
        List<SimGrid.Node> nodes = grid.grant(workers);
        if (!nodes.isEmpty()) {
            account.grew();
        }
        for (SimGrid.Node node : nodes) {
            book.starting(node, now);
            events.after(delay.draw(random), () -> join(node.id()));
        }
        return nodes;
    }

    private void join(String id) {
        Instant now = events.instant();
        account.joined(book.reportedIn(id, now, true));
        started(master.addWorker(id, now), now);
        if (awaited.remove(id) && awaited.isEmpty()) {
            submit(pending.pollFirst(), now);
            serveHead();
        }
    }

    private void submit(Job job, Instant now) {
        PlacementOutcome out = master.submit(job, now);
        submittedApps += job.apps().size();
        account.submitted(job.submittedAt(), now, job.apps().size());
        started(out.with(AppOutcome.Verdict.PLACED), now);
    }

    private void started(List<AppOutcome> placed, Instant now) {
        for (AppOutcome o : placed) {
            Application app = o.app();
            apps.put(app.id(), new Running(app, now));
            events.at(now.plus(app.duration()), () -> finish(app.id()));
        }
    }

    private void finish(String appId) {
        Instant now = events.instant();
        Running r = apps.remove(appId);
        account.used(nodePercentSeconds(r, now));
        started(master.finish(appId, now), now);
    }

    /** CPU an application used from its start to {@code until}, in percent of a node × seconds. */
    private double nodePercentSeconds(Running r, Instant until) {
        double perComponent = workload.cpuSeconds(r.app(), r.start(), until);
        return r.app().isRl() ? perComponent : perComponent * r.app().components() / master.settings().slotsPerWorker();
    }

    private void sample() {
        Instant now = events.instant();
        Map<String, Worker> inMaster = new HashMap<>();
        master.workers().forEach(w -> inMaster.put(w.id(), w));
        double cpuUsed = 0;
        int busy = 0;
        for (Worker w : inMaster.values()) {
            double cpu = cpu(w, now);
            book.sampled(w.id(), cpu, now);
            cpuUsed += cpu / 100;
            busy += w.isIdle() ? 0 : 1;
        }
        account.point(Workload.START, now, book.size(), busy, cpuUsed);
        act(policy.onSample(book.layer(grid.idleNodes()), now), inMaster, now);
        // as the real master: while a job waits for its grow, the idle workers are the ones it counted on
        if (settings.policy().frameworkResizes() && awaited.isEmpty()) {
            List<String> idle = master.releaseRequest(now).release();
            if (!idle.isEmpty()) {
                act(policy.onShrinkRequest(book.layer(-1), idle, now), inMaster, now);
            }
        }
        events.after(settings.samplePeriod(), this::sample);
    }

    private double cpu(Worker w, Instant now) {
        double sum = 0;
        for (Worker.Running r : w.running()) {
            Running app = apps.get(r.appId());
            double level = workload.cpuAt(app.app(), app.start(), now);
            sum += app.app().isRl() ? level : level * r.slots() / w.slots();
        }
        return Math.min(100, sum);
    }

    private void act(WorkerDecision decision, Map<String, Worker> inMaster, Instant now) {
        if (decision instanceof WorkerDecision.Grow g) {
            grow(g.workers(), now);
        } else if (decision instanceof WorkerDecision.Release r) {
            for (String id : r.workers()) {
                Worker w = inMaster.get(id);
                if (w == null || !w.isIdle()) {
                    busyReleasesRefused++;
                    continue;
                }
                master.removeWorker(id, now);
                RunnerBook.Released gone = book.remove(id);
                grid.release(gone.node());
                account.released(gone.requestedAt(), now);
            }
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

    long busyReleasesRefused() {
        return busyReleasesRefused;
    }
}
