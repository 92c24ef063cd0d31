package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import koala.api.runner.RunnerMessages.HeartbeatReply;

/**
 * Keeps the instance's master while it runs. A master that dies is started again
 * ({@link MasterRestarts}): its launcher restarts it on its node when the node is still there, else
 * it is deployed on a new node, asked for again every {@link #RETRY} while refused; either way the
 * FrameworkJobManager is pointed at its new address once it reports in. A master that cannot be
 * restarted ends the instance. The master's address is what new entities are told. Lives on the
 * loop; the FrameworkJobManager is told off it.
 */
final class MasterKeeper {
    /** Restarts of a master in a row, each dying within {@link #STABLE} of its start, before the instance fails. */
    static final int RESTARTS = 3;
    static final Duration STABLE = Duration.ofSeconds(60);
    /** How long after a refused grow for the master's new node the runner asks again. */
    static final Duration RETRY = Duration.ofSeconds(10);

    /** Ends the instance with a reason. */
    interface Ending {
        void end(FrameworkRunner.State how, String why);
    }

    private final Entities entities;
    private final Events events;
    private final Deployd deployd;
    private final SchedulerCalls calls;
    private final Resizer resizer;
    private final Ending ending;
    private final InstantSource clock;
    private final MasterRestarts restarts = new MasterRestarts(RESTARTS, STABLE);
    /** When the master died, until its successor reports in; when to ask again for a node for it. */
    private Instant died;
    private Instant retry;
    /** The site of the master last lost; whether its being down was said in the events. */
    private String lostOn;
    private boolean waitSaid;
    private String address;

    MasterKeeper(Entities entities, Events events, Deployd deployd, SchedulerCalls calls, Resizer resizer,
                 Ending ending, InstantSource clock) {
        this.entities = entities;
        this.events = events;
        this.deployd = deployd;
        this.calls = calls;
        this.resizer = resizer;
        this.ending = ending;
        this.clock = clock;
    }

    /** The master's host:port, once it reported in. */
    String address() {
        return address;
    }

    /** The address a runner before this one kept (a runner taking the instance over). */
    void restore(String kept) {
        address = kept;
        deployd.master(kept);
    }

    /** The master of the initial deployment reported in: the FrameworkJobManager and new entities get its address. */
    void first(Entity master, Instant now) {
        serves(master, now);
    }

    /** The master (restarted) reported in while the instance runs. */
    void back(Entity master, Instant now) {
        serves(master, now);
        retry = null;
        events.add(now, "master " + master.node() + " serves at " + address
                + (died == null ? "" : ", " + Duration.between(died, now).toMillis() / 1000.0
                + " s after its predecessor was found lost"));
        died = null;
    }

    private void serves(Entity master, Instant now) {
        String at = master.host() + ":" + master.port();
        calls.tell(s -> s.master(master.node(), at), e -> events.add(clock.instant(),
                "could not point the FrameworkJobManager at the master " + at + ": " + e.getMessage()));
        deployd.master(at);
        address = at;
        restarts.reportedIn(now);
    }

    /**
     * The running instance's master on {@code node} exited: RESTART it on its node (its launcher
     * starts the command again, and says hello again), or STOP and end the instance.
     */
    String exited(String node, String why, Instant now) {
        MasterRestarts.Decision d = restarts.died(now, why, true);
        if (d.restart()) {
            died = now;
            events.add(now, d.reason().replaceFirst("^master", "master " + node));
            return HeartbeatReply.RESTART;
        }
        ending.end(FrameworkRunner.State.FAILED, d.reason());
        return HeartbeatReply.STOP;
    }

    /** The running instance's master {@code e} was lost: deployed on a new node, or the instance ends. */
    void lost(Entity e, String why, Instant now) {
        MasterRestarts.Decision d = e.running() ? restarts.died(now, why, false) : restarts.failedToStart(now, why);
        if (!d.restart()) {
            ending.end(FrameworkRunner.State.FAILED, d.reason());
            return;
        }
        died = died == null ? now : died;
        lostOn = e.site() != null ? e.site() : lostOn;
        waitSaid = false;
        elsewhere(d.reason());
    }

    /** Whether a node for a lost master was refused and is to be asked for again: the sites down then matter. */
    boolean waitsForNode() {
        return retry != null && entities.master().isEmpty();
    }

    /**
     * Each tick: a master whose new node was refused is asked for again once {@link #RETRY} has passed.
     * While the lost master's site is down at the scheduler ({@code down}) a refusal says nothing of the
     * master: it is not counted as a failed restart, and the node is asked for again until the site is
     * back (an instance on a remote site may be placed only there).
     */
    void retryIfDue(Instant now, java.util.Set<String> down) {
        if (retry == null || now.isBefore(retry) || entities.master().isPresent()) {
            return;
        }
        if (lostOn != null && down.contains(lostOn)) {
            if (!waitSaid) {
                waitSaid = true;
                events.add(now, "the master's site " + lostOn + " cannot be reached now: its new node is asked for "
                        + "again every " + RETRY.toSeconds() + " s until it can, no restart counted meanwhile");
            }
            elsewhere("master lost; its site " + lostOn + " cannot be reached now");
            return;
        }
        MasterRestarts.Decision d = restarts.failedToStart(now, "no node for it");
        if (!d.restart()) {
            ending.end(FrameworkRunner.State.FAILED, d.reason());
            return;
        }
        elsewhere(d.reason());
    }

    /** Asks for a new node for the master; one refused (or not answered) is asked for again after {@link #RETRY}. */
    private void elsewhere(String reason) {
        retry = null;
        resizer.deploy(Entities.MASTER, 1, reason).whenComplete((result, failure) -> {
            if (failure != null || result.granted() == 0) {
                retry = clock.instant().plus(RETRY);
            }
        });
    }
}
