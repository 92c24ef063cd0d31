package koala.fluent.master;

import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.common.event.EventLine;
import koala.fluent.wire.FluentMessages.MasterEvent;
import koala.fluent.wire.MasterEventKind;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The master's decisions, each with its reason: logged, written to the metrics folder's
 * {@code events.log} as one JSON line each ({@link EventLine}: time, kind, text and the event's
 * fields), the latest kept for status. Kept on the master's loop, as its state is.
 */
final class MasterEvents {
    private static final Logger LOG = LogManager.getLogger(FrameworkManager.class);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());
    private static final int KEEP = 200;

    private final InstantSource clock;
    private final MetricsLog log;
    private final Deque<MasterEvent> recent = new ArrayDeque<>();

    MasterEvents(InstantSource clock, MetricsLog log) {
        this.clock = clock;
        this.log = log;
    }

    /** An event that is only a note: its kind is {@link MasterEventKind#NOTE}. */
    void add(String event) {
        add(MasterEventKind.NOTE, event, Map.of());
    }

    void add(MasterEventKind kind, String event, Map<String, ?> fields) {
        Instant now = clock.instant();
        LOG.info(event);
        log.event(new EventLine(now, kind.name(), event, new LinkedHashMap<>(fields)).json());
        if (recent.size() == KEEP) {
            recent.removeFirst();
        }
        recent.addLast(new MasterEvent(TIME.format(now), kind, event));
    }

    List<MasterEvent> recent() {
        return List.copyOf(recent);
    }
}
