package koala.process;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a command to end, within a time-out, while its output is read. The output is read on
 * threads of its own: a caller that reads it to the end before waiting waits as long as the
 * command lives, so a hung {@code qstat} (a qmaster paused with {@code kill -STOP}) was never
 * timed out. Works for a local process and for a command on an SSH channel alike.
 */
public final class Completion {
    /**
     * How long output may still flow once the command has ended: its streams end when the last
     * process holding them exits, and one it left behind would keep them open for good.
     */
    static final Duration STREAM_GRACE = Duration.ofSeconds(1);

    /** Waits at most {@code timeout} for the command to end; true if it did. */
    @FunctionalInterface
    public interface Ending {
        boolean await(Duration timeout) throws InterruptedException;
    }

    /** What the command wrote. */
    public record Output(byte[] out, byte[] err) {
        public String outText() {
            return new String(out, java.nio.charset.StandardCharsets.UTF_8);
        }

        public String errText() {
            return new String(err, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private Completion() {
    }

    /**
     * Reads {@code out} and {@code err} to their ends while waiting for {@code ending}. Empty when
     * the command did not end within {@code timeout}, or its output did not end just after: the
     * caller then stops it (which also ends the reading threads).
     *
     * @param name names the reading threads, for thread dumps
     */
    public static Optional<Output> await(InputStream out, InputStream err, Ending ending, Duration timeout, String name)
            throws InterruptedException {
        CompletableFuture<byte[]> outBytes = drain(out, name + "-out");
        CompletableFuture<byte[]> errBytes = drain(err, name + "-err");
        if (!ending.await(timeout)) {
            return Optional.empty();
        }
        try {
            CompletableFuture.allOf(outBytes, errBytes).get(STREAM_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            return Optional.of(new Output(outBytes.join(), errBytes.join()));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause()); // drain completes normally, always
        }
    }

    /** For a local process: waits for it, and on a time-out kills it with everything it started. */
    public static Optional<Output> await(Process process, Duration timeout, String name) throws InterruptedException {
        try {
            Optional<Output> output = await(process.getInputStream(), process.getErrorStream(),
                    t -> process.waitFor(t.toMillis(), TimeUnit.MILLISECONDS), timeout, name);
            if (output.isEmpty()) {
                kill(process);
            }
            return output;
        } catch (InterruptedException e) {
            kill(process);
            throw e;
        }
    }

    /** Kills the process and its descendants, found before the parent dies and orphans them. */
    public static void kill(Process process) {
        java.util.List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    private static CompletableFuture<byte[]> drain(InputStream in, String name) {
        CompletableFuture<byte[]> bytes = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (in) {
                bytes.complete(in.readAllBytes());
            } catch (IOException e) {
                bytes.complete(new byte[0]); // the stream was closed under us: the command was stopped
            }
        }, name);
        reader.setDaemon(true);
        reader.start();
        return bytes;
    }
}
