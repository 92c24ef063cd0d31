package koala.runner;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import koala.common.event.EventLine;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What the runner decided and noticed, with the reasons: each event written to the runner's log as
 * one JSON line ({@link EventLine}: time, kind, text, instance and the event's fields) on the
 * logger {@code koala.events.runner}, and the latest kept, as text, for the status RPC.
 */
final class Events {
    private static final Logger LOG = LogManager.getLogger("koala.events.runner");
    private static final int KEPT = 200;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final Deque<String> recent = new ArrayDeque<>();
    private final Consumer<String> out;
    private long instance = -1;

    Events() {
        this(LOG::info);
    }

    /** @param out where each event's JSON line goes */
    Events(Consumer<String> out) {
        this.out = out;
    }

    void instance(long id) {
        this.instance = id;
    }

    /** An event that is only a note: its kind is {@link EventKind#NOTE}. */
    synchronized void add(Instant at, String text) {
        add(at, EventKind.NOTE, text, Map.of());
    }

    synchronized void add(Instant at, EventKind kind, String text, Map<String, ?> fields) {
        Map<String, Object> all = new LinkedHashMap<>(fields);
        all.put("instance", instance);
        out.accept(new EventLine(at, kind.name(), text, all).json());
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
