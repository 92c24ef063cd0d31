package koala.runner;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** What the runner decided and noticed, with the reasons: logged, and the latest kept for the status RPC. */
final class Events {
    private static final Logger LOG = LogManager.getLogger(FrameworkRunner.class);
    private static final int KEPT = 200;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final Deque<String> recent = new ArrayDeque<>();
    private long instance = -1;

    void instance(long id) {
        this.instance = id;
    }

    synchronized void add(Instant at, String text) {
        LOG.info("instance {}: {}", instance, text);
        recent.addLast(TIME.format(at) + " " + text);
        if (recent.size() > KEPT) {
            recent.removeFirst();
        }
    }

    /** Takes back the decisions a runner before this one kept (they were logged then). */
    synchronized void restore(List<String> kept) {
        recent.clear();
        recent.addAll(kept.subList(Math.max(0, kept.size() - KEPT), kept.size()));
    }

    synchronized List<String> recent() {
        return List.copyOf(recent);
    }
}
