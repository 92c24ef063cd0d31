package koala.fluent.master;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import koala.common.failure.Unavailable;
import koala.http.ApiException;

/**
 * The master's calls to its DeviceManagers, made off its loop: each on its application's lane
 * ({@link DeviceLanes}: in the order the loop made them), once what the loop wrote before it is on
 * disk ({@link JournalLine}), within the DeviceManager client's time-out. What a call comes to — a
 * refusal, a time-out, a DeviceManager that cannot do it, a move's outcome — is posted back to the
 * loop, where the state it concerns is looked at again. Each returns when the call is over, so that
 * what must follow it (an RL's start after the suspensions it caused, a give-back after the moves off
 * the workers given back) can wait for it.
 */
final class DeviceCalls {
    private final Devices devices;
    private final DeviceLanes lanes;
    private final JournalLine journal;
    private final MasterLoop loop;

    DeviceCalls(Devices devices, DeviceLanes lanes, JournalLine journal, MasterLoop loop) {
        this.devices = devices;
        this.lanes = lanes;
        this.journal = journal;
        this.loop = loop;
    }

    /** Ends whatever {@code app} still runs at {@code url}. */
    CompletableFuture<Void> stop(String app, String url, Consumer<RuntimeException> failed) {
        return call(app, d -> d.stop(url, app), failed);
    }

    /** Suspends (or resumes) {@code app}'s components at {@code url}. */
    CompletableFuture<Void> suspend(String app, String url, boolean suspend, Consumer<RuntimeException> failed) {
        return call(app, d -> {
            if (suspend) {
                d.suspend(url, app);
            } else {
                d.resume(url, app);
            }
        }, failed);
    }

    /**
     * Starts {@code app}'s components, in order, once {@code after} (the calls its start waits for) is
     * over; {@code failed} gets the one that could not start and why (posted to the loop before this
     * returns).
     */
    CompletableFuture<Void> deploy(String app, List<Components.Start> starts, CompletableFuture<Void> after,
                                   BiConsumer<Components.Start, RuntimeException> failed) {
        Components.Start[] current = new Components.Start[1];
        return call(app, d -> {
            waitFor(after);
            for (Components.Start start : starts) {
                current[0] = start;
                d.deploy(start.url(), start.deploy());
            }
        }, e -> failed.accept(current[0], e));
    }

    /**
     * Carries out {@code plan} ({@link Mover}) with the workers at {@code urls}; {@code outcome} gets the
     * components moved, or the failure. A call cut short otherwise (a worked example's master killed
     * mid-move) tells {@code cutShort} only.
     */
    void move(MovePlan plan, Map<String, String> urls, boolean again, BiConsumer<Integer, Unavailable> outcome,
              Runnable cutShort) {
        journal.then(() -> lanes.run(plan.app(), () -> {
            boolean told = false;
            try {
                int moved = Mover.carry(devices, plan, urls, again);
                told = true;
                loop.post(() -> outcome.accept(moved, null));
            } catch (Unavailable e) {
                told = true;
                loop.post(() -> outcome.accept(0, e));
            } finally {
                if (!told) {
                    loop.post(cutShort);
                }
            }
        }));
    }

    private CompletableFuture<Void> call(String app, Consumer<Devices> call, Consumer<RuntimeException> failed) {
        CompletableFuture<Void> made = new CompletableFuture<>();
        journal.then(() -> lanes.run(app, () -> {
            try {
                call.accept(devices);
            } catch (ApiException | UnsupportedOperationException | IllegalStateException e) {
                loop.post(() -> failed.accept(e));
            } finally {
                made.complete(null);
            }
        }));
        return made;
    }

    /** On a lane: the calls an application's start waits for, each within its own time-out. */
    private static void waitFor(CompletableFuture<Void> calls) {
        try {
            calls.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // they were given up on already, each by its own time-out; the start goes ahead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
