package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.common.failure.Failure;
import koala.common.failure.Unavailable;
import koala.runner.SchedulerCalls.Outcome;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Keeps the runner's book true to the grid: it reconciles it with the scheduler's allocation (nodes
 * the scheduler no longer holds are lost, workers the grid's arbitration granted join, an ended
 * allocation ends the instance) and finds entities gone silent (no heartbeat for two periods). A lost
 * node is given back; its entity may still hold the instance's token, so the token is replaced.
 *
 * <p>Looks at the allocation are made off the loop and judged when they come back: a node that came
 * or went after the look was asked ({@link Entities#changedSince}) is not judged by it, nor is one
 * the runner is giving back ({@link Releases}), nor is a worker that may be the grant of a grow still
 * in flight. Those who want a fresh look (each tick; a hello from a node the runner does not know)
 * share one: a look asked after they asked. Lives on the loop.
 */
final class Reconciler {
    private static final Logger LOG = LogManager.getLogger(Reconciler.class);
    /**
     * How far a remote site's state at the scheduler lags its link: a cut is noticed within about 20 s
     * (the head node's SSH server is asked every 5 s whether it is alive, three times, and the site's
     * next poll says so), and once the link is back a launcher's beats come through again within 30 s
     * (a beat caught in the cut timing out) and a period.
     */
    static final Duration LINK_LAG = Duration.ofSeconds(45);

    private final Entities entities;
    private final Events events;
    private final SchedulerCalls calls;
    private final Releases releases;
    private final Grows grows;
    private final SiteSettings settings;
    private final Lifecycle lifecycle;
    private final MasterKeeper master;
    private final MasterKeeper.Ending ending;
    private final Consumer<String> rotate;
    private final InstantSource clock;
    private final RunnerGone runnerGone;
    private final SchedulerSilence silence;
    private final Set<String> waitingOnLink = new HashSet<>();
    /** When each site was last seen down at the scheduler. */
    private final Map<String, Instant> seenDown = new java.util.HashMap<>();
    private boolean looking;
    private List<Consumer<Outcome<JobView>>> next = new ArrayList<>();

    /**
     * @param rotate     replaces the instance's token, saying why
     * @param runnerGone how long a launcher waits for a silent runner before it ends its entity
     * @param giveUp     how long the scheduler may be silent before the instance fails
     */
    Reconciler(Entities entities, Events events, SchedulerCalls calls, Releases releases, Grows grows,
               SiteSettings settings, Lifecycle lifecycle, MasterKeeper master, MasterKeeper.Ending ending,
               Consumer<String> rotate, InstantSource clock, RunnerGone runnerGone, Duration giveUp) {
        this.entities = entities;
        this.events = events;
        this.calls = calls;
        this.releases = releases;
        this.grows = grows;
        this.settings = settings;
        this.lifecycle = lifecycle;
        this.master = master;
        this.ending = ending;
        this.rotate = rotate;
        this.clock = clock;
        this.runnerGone = runnerGone;
        this.silence = new SchedulerSilence(giveUp);
    }

    /** Looks at the allocation afresh and reconciles the book with it; then {@code then}, on the loop, with the outcome. */
    void look(Consumer<Outcome<JobView>> then) {
        if (looking) {
            next.add(then);
            return;
        }
        ask(List.of(then));
    }

    private void ask(List<Consumer<Outcome<JobView>>> waiting) {
        looking = true;
        long mark = entities.mark();
        calls.ask(Schedd::allocation, outcome -> {
            try {
                if (outcome.answered() && !lifecycle.ended()) {
                    reconcile(outcome.value(), mark);
                }
                entities.settledUpTo(mark);
            } finally {
                looking = false;
                List<Consumer<Outcome<JobView>>> after = next;
                next = new ArrayList<>();
                waiting.forEach(w -> w.accept(outcome));
                if (!after.isEmpty()) {
                    if (looking) {
                        next.addAll(after);
                    } else {
                        ask(after);
                    }
                }
            }
        });
    }

    /**
     * Whether the scheduler answered the look; while it does not, nothing else is done (grows and
     * releases need it), and the instance fails once it has been silent for the time the launchers
     * wait too.
     */
    boolean answers(Outcome<JobView> outcome, Instant now) {
        if (outcome.answered()) {
            silence.answered(now).ifPresent(text -> events.add(now, text));
            return true;
        }
        Failure e = outcome.failure();
        if (!(e instanceof Unavailable)) {
            LOG.warn("instance {}: the scheduler refused the look at the allocation: {}", calls.instance(),
                    e.getMessage());
            return false;
        }
        if (silence.silent(now)) {
            ending.end(FrameworkRunner.State.FAILED, "the scheduler has not answered for " + silence.giveUp().toSeconds()
                    + " s (" + e.getMessage() + ")");
        } else if (silence.began(now)) {
            events.add(now, "the scheduler does not answer (" + e.getMessage() + "); trying every second, giving "
                    + "up after " + silence.giveUp().toSeconds() + " s");
        }
        return false;
    }

    /**
     * Entities whose node the scheduler no longer holds (killed, claim timed out) are lost; an ended
     * allocation ends the instance; a worker held and unknown was granted by the grid's arbitration
     * (nodes taken back for this instance, or its queued work). {@code mark}: when the look was asked.
     */
    private void reconcile(JobView allocation, long mark) {
        if (allocation.ended()) {
            ending.end(FrameworkRunner.State.ENDED, "its allocation is " + allocation.state());
            return;
        }
        Set<String> held = new HashSet<>();
        for (NodeView n : allocation.nodes()) {
            held.add(n.id());
            Optional<Entity> known = entities.get(n.id());
            known.filter(e -> e.site() == null).ifPresent(e -> entities.put(e.at(n.site())));
            if (known.isPresent() || entities.changedSince(n.id(), mark)) {
                continue;
            }
            Optional<Releases.Stage> given = releases.stage(n.id());
            if (given.isPresent()) {
                if (given.get() == Releases.Stage.REFUSED) {
                    releases.giveBack(List.of(n.id()), "given back again: the scheduler still holds it");
                }
                continue;
            }
            if (Entities.WORKER.equals(n.role()) && lifecycle.is(FrameworkRunner.State.RUNNING) && !grows.busy()) {
                Instant now = clock.instant();
                entities.starting(List.of(n.id()), Entities.WORKER, now, 0);
                events.add(now, EventKind.GROW, "grow 1 worker [" + n.id() + "]: granted by the grid's "
                        + "arbitration", Map.of("role", Entities.WORKER, "count", 1, "nodes", List.of(n.id())));
            }
        }
        // the scheduler shows only the nodes it holds: one of ours it no longer holds exited, was
        // released or was lost there
        List<String> gone = entities.all().stream().map(Entity::node)
                .filter(n -> !held.contains(n) && !entities.changedSince(n, mark)).toList();
        gone.forEach(n -> lost(n, "its node is no longer held at the scheduler"));
        if (!gone.isEmpty() && !lifecycle.ended()) {
            rotate.accept("lost " + gone + " without seeing its entity end (it may still hold the token)");
        }
        releases.all().stream().filter(n -> !held.contains(n) && !entities.changedSince(n, mark)
                && releases.stage(n).orElse(null) != Releases.Stage.ASKED).forEach(releases::forget);
    }

    /** Whether an entity silent now runs on a remote site: the sites down at the scheduler decide whether it is lost. */
    boolean needsSitesDown(Instant now) {
        return entities.silent(now).stream().anyMatch(e -> settings.remote(e.site()));
    }

    /**
     * Entities silent for two periods are lost, but for those on a remote site that may be behind a cut
     * of its link ({@link #behindLink}; {@code down}: the sites the scheduler cannot reach now): their
     * heartbeats come through that link, and their pilots carry on meanwhile. They are waited for while
     * their launchers wait for this runner ({@link RunnerGone}, after which a launcher ends its entity
     * and pilot itself) plus one period; heard from again, they carry on.
     */
    void silent(Instant now, Set<String> down) {
        down.forEach(site -> seenDown.put(site, now));
        List<Entity> silent = entities.silent(now);
        if (silent.isEmpty()) {
            waitingOnLink.clear();
            return;
        }
        List<String> unseen = new ArrayList<>();
        for (Entity e : silent) {
            long quiet = Duration.between(e.lastBeat(), now).toSeconds();
            Duration wait = runnerGone.at(true);
            Instant bound = e.lastBeat().plus(wait).plus(e.beatPeriod());
            if (settings.remote(e.site()) && now.isBefore(bound) && behindLink(e, now, down)) {
                if (down.contains(e.site()) && waitingOnLink.add(e.node())) {
                    events.add(now, e.role() + " " + e.node() + " silent for " + quiet + " s while the link to "
                            + e.site() + " is down: waited for until " + bound + " (its launcher waits "
                            + wait.toSeconds() + " s for this runner)");
                }
                continue;
            }
            waitingOnLink.remove(e.node());
            unseen.add(e.node());
            lost(e.node(), "no heartbeat for " + quiet + " s (two periods: " + e.beatPeriod().toSeconds() + " s each)"
                    + (down.contains(e.site()) ? "; the link to " + e.site() + " was down longer than its launcher waits"
                    : ""));
        }
        waitingOnLink.retainAll(silent.stream().map(Entity::node).toList());
        if (!unseen.isEmpty() && !lifecycle.ended()) {
            rotate.accept("lost " + unseen + " without seeing its entity end (it may still hold the token)");
        }
    }

    /** {@code e} beats again at {@code now}: if it was waited for behind a link that was down, it is said to be back. */
    void heard(Entity e, Instant now) {
        if (waitingOnLink.remove(e.node())) {
            events.add(now, e.role() + " " + e.node() + " heard from again after " + Duration.between(e.lastBeat(), now)
                    .toSeconds() + " s silent (the link to " + e.site() + " is back)");
        }
    }

    /**
     * Whether silent {@code e}, on a remote site, may be behind a cut of the site's link rather than
     * gone: the site is down now; or the entity has been silent for less than {@link #LINK_LAG}, before
     * which the scheduler may not have noticed a cut yet; or the site was down since its last beat and
     * came back less than {@link #LINK_LAG} and a period ago, within which its launcher's beats come
     * through again.
     */
    private boolean behindLink(Entity e, Instant now, Set<String> down) {
        if (down.contains(e.site()) || now.isBefore(e.lastBeat().plus(LINK_LAG))) {
            return true;
        }
        Instant last = seenDown.get(e.site());
        return last != null && last.isAfter(e.lastBeat()) && now.isBefore(last.plus(LINK_LAG).plus(e.beatPeriod()));
    }

    /**
     * {@code node} is lost: out of the book, given back; a running instance's master is started again
     * elsewhere (or the instance fails), a deploying instance without its master fails.
     */
    void lost(String node, String why) {
        Optional<Entity> gone = entities.remove(node);
        if (gone.isEmpty() || lifecycle.ended()) {
            return;
        }
        Instant now = clock.instant();
        Entity e = gone.get();
        events.add(now, EventKind.LOST, e.role() + " " + node + " lost: " + why, Map.of("node", node, "role", e.role()));
        releases.giveBack(List.of(node), e.role() + " lost: " + why);
        if (e.is(Entities.MASTER) && lifecycle.is(FrameworkRunner.State.RUNNING)) {
            master.lost(e, why, now);
        } else if (e.is(Entities.MASTER)) {
            ending.end(FrameworkRunner.State.FAILED, "its master was lost (" + why + ")");
        }
    }
}
