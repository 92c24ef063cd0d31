package koala.fluent.master;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import koala.common.http.ApiException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The master's calls to its runner, made off the master's lock: on the line's own thread, one
 * after another in the order they were asked (a shrink before the status read that follows it), each
 * within the runner client's time-out. What a call brings back — its answer, or the runner's refusal
 * or silence as an {@link ApiException} — is handed to the master under its lock, where the state it
 * answers is looked at again: a client's job, a DeviceManager's hello or report is taken meanwhile.
 * Worked examples make the calls on the caller's thread at once ({@code Runnable::run}).
 */
final class RunnerLine {
    private static final Logger LOG = LogManager.getLogger(RunnerLine.class);

    private final Runner runner;
    private final Executor thread;
    private final Object lock;

    private RunnerLine(Runner runner, Executor thread, Object lock) {
        this.runner = runner;
        this.thread = thread;
        this.lock = lock;
    }

    /** Calls on {@code thread}; answers handed over under {@code lock}. */
    static RunnerLine on(Runner runner, Executor thread, Object lock) {
        return new RunnerLine(runner, thread, lock);
    }

    /** A daemon thread of the line's own, for {@link #on}. */
    static ExecutorService thread() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "runner-line");
            t.setDaemon(true);
            return t;
        });
    }

    /** Makes {@code call}; {@code then} gets its answer, or its failure, under the master's lock. */
    <T> void call(Function<Runner, T> call, BiConsumer<T, ApiException> then) {
        thread.execute(() -> {
            T answer = null;
            ApiException failure = null;
            try {
                answer = call.apply(runner);
            } catch (ApiException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new ApiException(500, "calling the runner failed: " + e);
            }
            try {
                synchronized (lock) {
                    then.accept(answer, failure);
                }
            } catch (RuntimeException e) {
                LOG.error("taking the runner's answer failed; the master goes on", e);
            }
        });
    }

    /** A call whose answer changes nothing; {@code failed} gets its failure, if any, under the master's lock. */
    void tell(Consumer<Runner> call, Consumer<ApiException> failed) {
        call(r -> {
            call.accept(r);
            return Boolean.TRUE;
        }, (done, failure) -> {
            if (failure != null) {
                failed.accept(failure);
            }
        });
    }
}
