package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import koala.api.runner.RunnerMessages;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Orders;
import koala.common.failure.Conflict;
import koala.common.failure.Gone;
import koala.provisioning.GrowOverhead;

/**
 * The instance's node launchers as the runner hears them: a launcher says hello once its entity
 * runs (and is given its node's key and the heartbeat period), beats every period with the CPU use of
 * its entity, and says when its entity exited. A node the runner does not know yet may say hello
 * before the grant that named it has come back from the scheduler, or before the runner has seen a
 * worker the grid's arbitration granted: such a hello is answered once the grows asked before it have
 * their answers and a fresh look at the allocation has been judged. Lives on the loop.
 */
final class Launchers {
    private final Entities entities;
    private final Events events;
    private final InstanceSecrets secrets;
    private final GrowOverhead growOverhead;
    private final Lifecycle lifecycle;
    private final MasterKeeper master;
    private final Reconciler reconciler;
    private final Grows grows;
    private final SchedulerCalls calls;
    private final InstantSource clock;
    private final Supplier<Duration> period;
    private final RunnerGone runnerGone;
    private final SiteSettings settings;
    private final Consumer<String> rotate;
    /** Each running entity's start, step by step (what a grow's overhead is made of). */
    private final Map<String, RunnerMessages.Startup> startups = new HashMap<>();

    /**
     * @param period     the heartbeat period in force (the sample period)
     * @param runnerGone how long a launcher waits for a silent runner, by its site
     * @param settings   which sites are remote
     * @param rotate     replaces the instance's token, saying why
     */
    Launchers(Entities entities, Events events, InstanceSecrets secrets, GrowOverhead growOverhead, Lifecycle lifecycle,
              MasterKeeper master, Reconciler reconciler, Grows grows, SchedulerCalls calls, InstantSource clock,
              Supplier<Duration> period, RunnerGone runnerGone, SiteSettings settings, Consumer<String> rotate) {
        this.entities = entities;
        this.events = events;
        this.secrets = secrets;
        this.growOverhead = growOverhead;
        this.lifecycle = lifecycle;
        this.master = master;
        this.reconciler = reconciler;
        this.grows = grows;
        this.calls = calls;
        this.clock = clock;
        this.period = period;
        this.runnerGone = runnerGone;
        this.settings = settings;
        this.rotate = rotate;
    }

    /**
     * A launcher says its entity runs on {@code node}. {@code keyed}: it proved the node with the
     * node's key (a master's launcher saying hello again after a restart); else it presented a token,
     * {@code current} when the token in force now. A hello the runner refuses with the token in
     * force — a node not the instance's, or one that already has a key — means the token is held by
     * a process that is not the instance's: the token is rotated. Answered through {@code reply}.
     */
    void hello(String node, Hello hello, boolean keyed, boolean current, RunnerLoop.Reply<Orders> reply) {
        if (entities.get(node).isPresent()) {
            answer(node, hello, keyed, current, reply);
            return;
        }
        grows.settled().thenRun(() -> {
            if (lifecycle.is(FrameworkRunner.State.RUNNING)) {
                // the scheduler's answer is judged as it comes; one that does not come leaves the node unknown
                reconciler.look(outcome -> answer(node, hello, keyed, current, reply));
            } else {
                answer(node, hello, keyed, current, reply);
            }
        });
    }

    /** Decides the hello, unless its launcher stopped waiting (it says hello again, and that one is decided). */
    private void answer(String node, Hello hello, boolean keyed, boolean current, RunnerLoop.Reply<Orders> reply) {
        if (!reply.begin()) {
            return;
        }
        try {
            reply.give(decide(node, hello, keyed, current));
        } catch (RuntimeException e) {
            reply.fail(e);
        }
    }

    private Orders decide(String node, Hello hello, boolean keyed, boolean current) {
        if (entities.get(node).isEmpty() && current) {
            rotate.accept("node " + node + ", not the instance's, said hello with its token");
        }
        Entity e = known(node);
        if (!keyed && secrets.keyed(node)) {
            if (current) {
                rotate.accept("node " + node + " said hello again without its key: another process holds the "
                        + "instance's token");
            }
            throw new Conflict("node " + node + " has reported in already; its launcher proves it with the node's key",
                    "node");
        }
        String key = secrets.issue(node);
        Instant now = clock.instant();
        Duration beat = period.get();
        Entity in = e.reportedIn(hello.site(), hello.host(), hello.port(), beat, now);
        entities.put(in);
        if (!e.running() && in.site() != null) {
            growOverhead.record(in.site(), e.requestedAt(), now);
        }
        if (hello.startup() != null) {
            startups.put(node, hello.startup().reported(now));
        }
        events.add(now, e.role() + " " + node + (e.running() ? " reported in again on " + hello.host() + " (restarted)"
                : " reported in on " + hello.host() + " (" + in.site() + ") after "
                + Duration.between(e.requestedAt(), now).toMillis() / 1000.0 + " s"));
        if (e.is(Entities.MASTER) && lifecycle.is(FrameworkRunner.State.RUNNING)) {
            master.back(in, now);
        }
        // a launcher behind a remote site's link waits out a cut of that link (RunnerGone)
        Duration wait = runnerGone.at(settings.remote(in.site()));
        return new Orders(beat.toMillis(), wait.toMillis(), key, secrets.token());
    }

    /** A heartbeat; to a launcher that proved its node with the node's key ({@code keyed}), the token in force. */
    HeartbeatReply heartbeat(String node, double cpu, boolean keyed) {
        Entity e = known(node);
        Duration beat = period.get();
        reconciler.heard(e, clock.instant());
        entities.beat(e, cpu, beat, clock.instant());
        return new HeartbeatReply(HeartbeatReply.KEEP, beat.toMillis(), keyed ? secrets.token() : null);
    }

    /**
     * The entity on {@code node} exited. A master while the instance runs is restarted on its node
     * (RESTART: its launcher starts the command again, and says hello again); anything else is lost (STOP).
     */
    HeartbeatReply exited(String node, int status, boolean keyed) {
        Entity e = known(node);
        String why = "its entity exited with status " + status;
        if (e.is(Entities.MASTER) && lifecycle.is(FrameworkRunner.State.RUNNING)) {
            if (HeartbeatReply.RESTART.equals(master.exited(node, why, clock.instant()))) {
                return new HeartbeatReply(HeartbeatReply.RESTART, period.get().toMillis(),
                        keyed ? secrets.token() : null);
            }
            return new HeartbeatReply(HeartbeatReply.STOP, 0);
        }
        reconciler.lost(node, why);
        return new HeartbeatReply(HeartbeatReply.STOP, 0);
    }

    /** The framework says worker {@code node} is busy, or idle since {@code since}. */
    void activity(String node, boolean busy, Instant since) {
        Entity e = entities.get(node).filter(w -> w.is(Entities.WORKER) && w.running()).orElseThrow(() ->
                new Conflict("node " + node + " is not a running worker of instance " + calls.instance(), "node"));
        entities.activity(e, busy, since, clock.instant());
    }

    /** How {@code node}'s start went, as its launcher reported it; empty once the node has gone. */
    Optional<RunnerMessages.Startup> startup(String node) {
        if (entities.get(node).isEmpty()) {
            startups.remove(node);
        }
        return Optional.ofNullable(startups.get(node));
    }

    private Entity known(String node) {
        return entities.get(node).orElseThrow(() -> new Gone("node " + node
                + " is not (or no longer) a node of instance " + calls.instance(), "node"));
    }
}
