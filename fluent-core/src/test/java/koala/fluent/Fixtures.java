package koala.fluent;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The explicit clock and small builders the worked examples share. All times are UTC on 1 May 2024. */
final class Fixtures {
    /** 10:00:00. */
    static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    /** Slots of every worker unless a test says otherwise, as in the example. */
    static final int SLOTS = 8;

    private Fixtures() {
    }

    /** T0 plus that many seconds. */
    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    /** An idle 8-slot worker, idle since T0. */
    static FluentWorker idle(String id) {
        return FluentWorker.idle(id, SLOTS, T0);
    }

    /** An 8-slot worker with {@code used} slots held by an application "load-" + id. */
    static FluentWorker busy(String id, int used) {
        return new FluentWorker(id, SLOTS, List.of(new FluentWorker.Running("load-" + id, used)), null);
    }

    /** An RL of 600 s, CPU 90% changing every 30 s. */
    static Application rl(String id) {
        return Application.rl(id, Duration.ofSeconds(600), 90, Duration.ofSeconds(30));
    }

    /** An SWC with 2^n + 2 components of {@code seconds}, 20% CPU a slot. */
    static Application swc(String id, int n, long seconds) {
        return Application.swc(id, n, Duration.ofSeconds(seconds), 20);
    }

    static FluentJob job(String id, Application... apps) {
        return new FluentJob(id, List.of(apps), T0);
    }
}
