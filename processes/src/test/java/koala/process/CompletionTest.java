package koala.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CompletionTest {
    private final ExecutorService caller = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        caller.shutdownNow();
    }

    @Test
    void aProcessThatHangsIsGivenUpAtItsTimeOutAndKilled() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "30").start();

        CompletableFuture<Optional<Completion.Output>> waited = CompletableFuture.supplyAsync(() -> {
            try {
                return Completion.await(sleep, Duration.ofMillis(300), "test");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, caller);

        assertThat(waited).succeedsWithin(Duration.ofSeconds(2)).isEqualTo(Optional.empty());
        assertThat(sleep.onExit()).succeedsWithin(Duration.ofSeconds(2));
    }

    /** As on an SSH channel: output that never ends and an end that never comes. */
    @Test
    void aChannelThatNeverClosesIsGivenUpAtItsTimeOut() throws Exception {
        PipedInputStream out = new PipedInputStream(new PipedOutputStream());
        AtomicBoolean closed = new AtomicBoolean();

        CompletableFuture<Optional<Completion.Output>> waited = CompletableFuture.supplyAsync(() -> {
            try {
                return Completion.await(out, java.io.InputStream.nullInputStream(), t -> awaitFlag(closed, t), Duration.ofMillis(300), "test");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, caller);

        assertThat(waited).succeedsWithin(Duration.ofSeconds(2)).isEqualTo(Optional.empty());
    }

    @Test
    void aCommandThatEndsGivesBothOfItsOutputs() throws Exception {
        Process echo = new ProcessBuilder("sh", "-c", "echo out; echo err >&2").start();

        Completion.Output output = Completion.await(echo, Duration.ofSeconds(10), "test").orElseThrow();

        assertThat(output.outText()).isEqualTo("out\n");
        assertThat(output.errText()).isEqualTo("err\n");
    }

    @Test
    void outputLargerThanAPipeBufferDoesNotStallTheCommand() throws Exception {
        // 1 MB on each stream: a caller that read one stream to its end first would deadlock on the other
        Process big = new ProcessBuilder("sh", "-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2").start();

        Completion.Output output = Completion.await(big, Duration.ofSeconds(10), "test").orElseThrow();

        assertThat(output.out()).hasSize(1 << 20);
        assertThat(output.err()).hasSize(1 << 20);
    }

    private static boolean awaitFlag(AtomicBoolean flag, Duration timeout) throws InterruptedException {
        synchronized (flag) {
            flag.wait(timeout.toMillis()); // nobody sets it: the condition wait ends by its time-out
        }
        return flag.get();
    }
}
