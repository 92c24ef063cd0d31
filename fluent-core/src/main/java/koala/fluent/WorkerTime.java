package koala.fluent;

import java.time.Duration;
import java.util.Objects;

/** How long one worker has been busy (anything running on it) and idle while it was in the framework. */
public record WorkerTime(Duration busy, Duration idle) {
    public static final WorkerTime NONE = new WorkerTime(Duration.ZERO, Duration.ZERO);

    public WorkerTime {
        Objects.requireNonNull(busy, "busy");
        Objects.requireNonNull(idle, "idle");
    }

    WorkerTime plus(boolean wasBusy, Duration elapsed) {
        return wasBusy ? new WorkerTime(busy.plus(elapsed), idle) : new WorkerTime(busy, idle.plus(elapsed));
    }
}
