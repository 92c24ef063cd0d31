package koala.cli;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The stages of one user command, for {@code bench cli} and anyone asking where a call's time goes:
 * with {@code KOALA_TIMING} set, the command prints one line on standard error as it ends,
 * {@code koala-timing launched=T exec=T main=T sent=T answered=T end=T}, each T in microseconds
 * since the epoch: when {@code bin/koala} started and when it handed over to the JVM (from its
 * {@code KOALA_TIMING_LAUNCHED} and {@code KOALA_TIMING_EXEC}), when {@code main} began, when the
 * first request to the scheduler was sent and its answer read, and when the command was done.
 * Without {@code KOALA_TIMING} nothing is recorded and nothing printed.
 */
final class CallTiming {
    private static final boolean ON = System.getenv("KOALA_TIMING") != null;
    private static final StringBuilder LINE = new StringBuilder();

    private CallTiming() {
    }

    /** Records that {@code stage} ended now (the first time only: with several files, the first call). */
    static void mark(String stage) {
        if (ON && LINE.indexOf(" " + stage + "=") < 0) {
            LINE.append(' ').append(stage).append('=').append(micros(InstantSource.system().instant()));
        }
    }

    /** The command is done: its line, with the launcher's stamps first. */
    static void end() {
        if (!ON) {
            return;
        }
        mark("end");
        System.err.println("koala-timing" + launcher("launched", "KOALA_TIMING_LAUNCHED")
                + launcher("exec", "KOALA_TIMING_EXEC") + LINE);
    }

    /** A stamp of bash's {@code $EPOCHREALTIME} (seconds, a decimal point or comma, microseconds). */
    private static String launcher(String stage, String variable) {
        String value = System.getenv(variable);
        return value == null || !value.matches("[0-9]+[.,][0-9]{6}") ? ""
                : " " + stage + "=" + value.replace(".", "").replace(",", "");
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000 + t.getNano() / 1_000;
    }
}
