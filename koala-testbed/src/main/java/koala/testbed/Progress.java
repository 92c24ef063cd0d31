package koala.testbed;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** Tells the person at the terminal what the testbed is doing, with the time since it began. */
public final class Progress {
    private final PrintStream out;
    private final InstantSource clock;
    private final Instant start;

    public Progress(PrintStream out, InstantSource clock) {
        this.out = out;
        this.clock = clock;
        this.start = clock.instant();
    }

    public static Progress quiet() {
        return new Progress(new PrintStream(java.io.OutputStream.nullOutputStream()), InstantSource.system());
    }

    public void step(String message) {
        Duration t = Duration.between(start, clock.instant());
        out.printf("[%5.1fs] %s%n", t.toMillis() / 1000.0, message);
        out.flush();
    }

    public void detail(String message) {
        out.println("         " + message);
        out.flush();
    }
}
