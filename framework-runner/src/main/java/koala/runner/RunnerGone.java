package koala.runner;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a node launcher waits for a silent runner before it stops its entity and gives the node
 * back, by where the node is; the runner tells each launcher its wait when it says hello, and waits
 * as long for a silent entity behind a link that is down.
 *
 * <p>On a site this machine's network reaches, a silent runner is a dead one (the scheduler starts a
 * killed runner again within a second or two): the launcher waits {@code local} (120 s by default),
 * so that a runner gone for good gives its nodes back soon. On a remote site the launcher reaches the
 * runner through the SSH link to the head node, and silence is far more often a cut link than a dead
 * runner: it waits at least {@link #REMOTE}, so that a cut of up to five minutes ends no entity. With
 * the default heartbeat period of 40 s a five-minute cut silences a launcher for at most 7 min 35 s:
 * a period since its last beat before the cut, the 5 minutes, 45 s for the scheduler to reconnect
 * (its tries back off to 30 s, each given 15 s), 30 s for a beat caught in the cut to time out, and a
 * period to the next beat. Ten minutes leaves room for periods up to about 90 s. What it costs: a
 * remote site's launchers whose runner is gone for good (and whose scheduler is gone too, or it
 * would end their pilots itself) hold their nodes ten minutes instead of two.
 *
 * @param local the wait on a site of this machine's network ({@code --runner-gone})
 */
record RunnerGone(Duration local) {
    /** The least a launcher on a remote site waits. */
    static final Duration REMOTE = Duration.ofMinutes(10);

    RunnerGone {
        Objects.requireNonNull(local, "local");
    }

    /** The wait of a launcher on a remote site ({@code remote}) or on one of this machine's network. */
    Duration at(boolean remote) {
        return remote && local.compareTo(REMOTE) < 0 ? REMOTE : local;
    }
}
