package koala.fluent.master;

import java.time.InstantSource;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** The master's decisions, each with its reason: logged, written to the metrics folder, the latest kept for status. */
final class MasterEvents {
    private static final Logger LOG = LogManager.getLogger(FrameworkManager.class);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());
    private static final int KEEP = 200;

    private final InstantSource clock;
    private final MetricsLog log;
    private final Deque<String> recent = new ArrayDeque<>();

    MasterEvents(InstantSource clock, MetricsLog log) {
        this.clock = clock;
        this.log = log;
    }

    synchronized void add(String event) {
        String line = TIME.format(clock.instant()) + " " + event;
        LOG.info(event);
        log.event(line);
        if (recent.size() == KEEP) {
            recent.removeFirst();
        }
        recent.addLast(line);
    }

    synchronized List<String> recent() {
        return List.copyOf(recent);
    }
}
