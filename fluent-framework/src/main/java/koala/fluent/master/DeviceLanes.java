package koala.fluent.master;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the master's calls to DeviceManagers are made, off its loop: one lane per application, its
 * calls one after another in the order the loop made them (its components deployed before it is
 * suspended, stopped or moved), the lanes of different applications side by side on a pool. So a
 * DeviceManager that hangs until its 20 s time-out holds up the calls about the applications it
 * runs, and nothing else. A lane lasts as long as it has calls to make.
 */
final class DeviceLanes {
    private static final class Lane {
        private final Deque<Runnable> calls = new ArrayDeque<>();
        private boolean running;
    }

    private final Executor pool;
    private final ConcurrentHashMap<String, Lane> lanes = new ConcurrentHashMap<>();

    private DeviceLanes(Executor pool) {
        this.pool = pool;
    }

    /** Lanes on {@code pool}; {@code Runnable::run} makes every call on the caller's thread, for worked examples. */
    static DeviceLanes on(Executor pool) {
        return new DeviceLanes(pool);
    }

    /** A pool of daemon threads, as many as lanes are busy. */
    static ExecutorService pool() {
        AtomicInteger n = new AtomicInteger();
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "device-calls-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Makes {@code call} on {@code app}'s lane, after those asked before it there. */
    void run(String app, Runnable call) {
        Lane[] start = new Lane[1];
        lanes.compute(app, (key, lane) -> {
            Lane l = lane == null ? new Lane() : lane;
            l.calls.addLast(call);
            if (!l.running) {
                l.running = true;
                start[0] = l;
            }
            return l;
        });
        if (start[0] != null) {
            pool.execute(() -> drain(app));
        }
    }

    private void drain(String app) {
        while (true) {
            Runnable[] next = new Runnable[1];
            lanes.compute(app, (key, lane) -> {
                next[0] = lane.calls.pollFirst();
                return next[0] == null ? null : lane; // an idle lane goes
            });
            if (next[0] == null) {
                return;
            }
            try {
                next[0].run();
            } catch (RuntimeException e) {
                lanes.remove(app); // a worked example's master killed mid-call: its lane goes with it
                throw e;
            }
        }
    }
}
