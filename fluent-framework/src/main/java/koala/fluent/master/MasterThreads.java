package koala.fluent.master;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

/**
 * The threads a master runs on: its loop, which owns its state; the line to its runner (one thread,
 * calls in order); the journal's writer (one thread, forces in batches); and the lanes of calls to
 * DeviceManagers (a pool). {@link #direct} runs them all on the caller's thread, for worked examples.
 */
record MasterThreads(MasterLoop loop, Executor runnerCalls, Executor journal, Executor deviceCalls)
        implements AutoCloseable {

    /** Everything on the caller's thread, at once, one caller at a time: the test's clock decides. */
    static MasterThreads direct() {
        return new MasterThreads(MasterLoop.direct(), Runnable::run, Runnable::run, Runnable::run);
    }

    /** The loop, the runner's line and the journal's writer on a thread each, the DeviceManagers' calls on a pool. */
    static MasterThreads threaded() {
        return new MasterThreads(MasterLoop.threaded("fluent-master"), RunnerLine.thread(), JournalLine.thread(),
                DeviceLanes.pool());
    }

    @Override
    public void close() {
        loop.close();
        for (Executor e : List.of(runnerCalls, journal, deviceCalls)) {
            if (e instanceof ExecutorService service) {
                service.shutdownNow();
            }
        }
    }
}
