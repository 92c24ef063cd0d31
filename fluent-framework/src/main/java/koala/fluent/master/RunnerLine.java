package koala.fluent.master;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import koala.http.ApiException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The master's calls to its runner, made off the master's loop: on the line's own thread, one
 * after another in the order they were asked (a shrink before the status read that follows it), each
 * within the runner client's time-out, and each only once what the loop wrote before asking it is on
 * disk ({@code gate}, the journal's line). What a call brings back — its answer, or the runner's
 * refusal or silence as an {@link ApiException} — is posted to the master's loop, where the state it
 * answers is looked at again: a client's job, a DeviceManager's hello or report is taken meanwhile.
 * Worked examples make the calls on the caller's thread at once ({@code Runnable::run}).
 */
final class RunnerLine {
    private static final Logger LOG = LogManager.getLogger(RunnerLine.class);

    private final Runner runner;
    private final Executor thread;
    private final Executor gate;
    private final MasterLoop loop;

    private RunnerLine(Runner runner, Executor thread, Executor gate, MasterLoop loop) {
        this.runner = runner;
        this.thread = thread;
        this.gate = gate;
        this.loop = loop;
    }

    /** Calls on {@code thread}, each let go through {@code gate}; answers posted to {@code loop}. */
    static RunnerLine on(Runner runner, Executor thread, Executor gate, MasterLoop loop) {
        return new RunnerLine(runner, thread, gate, loop);
    }

    /** A daemon thread of the line's own, for {@link #on}. */
    static ExecutorService thread() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "runner-line");
            t.setDaemon(true);
            return t;
        });
    }

    /** Makes {@code call}; {@code then} gets its answer, or its failure, on the master's loop. */
    <T> void call(Function<Runner, T> call, BiConsumer<T, ApiException> then) {
        gate.execute(() -> thread.execute(() -> {
            T answer = null;
            ApiException failure = null;
            try {
                answer = call.apply(runner);
            } catch (ApiException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new ApiException(500, "calling the runner failed: " + e);
            }
            T given = answer;
            ApiException failed = failure;
            loop.post(() -> {
                try {
                    then.accept(given, failed);
                } catch (RuntimeException e) {
                    LOG.error("taking the runner's answer failed; the master goes on", e);
                }
            });
        }));
    }

    /** A call whose answer changes nothing; {@code failed} gets its failure, if any, on the master's loop. */
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
