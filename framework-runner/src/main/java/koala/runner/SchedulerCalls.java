package koala.runner;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import koala.api.scheduler.RunnerGeneration;
import koala.common.failure.Failure;
import koala.common.failure.Refused;

/**
 * Calls to the scheduler, off the runner's loop. Each is made on a thread of its lane, within its
 * own time-out ({@link HttpSchedd}), and its {@link Outcome} is handed back to the loop, where the
 * state it answers is looked at again: by then a node may have said hello, been lost or been given
 * back. Grows have a lane of their own, so that a grow waiting for its grant holds up no release,
 * report or look at the allocation; in each lane the calls go one after another, in the order the
 * loop made them (a release before the look at the allocation that follows it).
 */
final class SchedulerCalls implements AutoCloseable {
    /** What a call gave, or the scheduler's refusal or silence. */
    record Outcome<T>(T value, Failure failure) {
        boolean answered() {
            return failure == null;
        }

        static <T> Outcome<T> of(T value) {
            return new Outcome<>(value, null);
        }

        static <T> Outcome<T> failed(Failure failure) {
            return new Outcome<>(null, failure);
        }
    }

    private final Schedd schedd;
    private final Executor grows;
    private final Executor others;
    private final Executor loop;
    /** Hears why, once the scheduler refused a call because this runner was replaced by another. */
    private volatile Consumer<String> replaced = why -> { };

    SchedulerCalls(Schedd schedd, Executor grows, Executor others, Executor loop) {
        this.schedd = schedd;
        this.grows = grows;
        this.others = others;
        this.loop = loop;
    }

    /** Calls on two daemon threads of their own (grows; everything else); outcomes posted to {@code loop}. */
    static SchedulerCalls threaded(Schedd schedd, RunnerLoop loop) {
        return new SchedulerCalls(schedd, Executors.newSingleThreadExecutor(daemon("runner-grows")),
                Executors.newSingleThreadExecutor(daemon("runner-scheduler")), loop::post);
    }

    /** Calls on the caller's thread, outcomes handed over at once: worked examples, on a loop that is direct too or a fake that answers at once. */
    static SchedulerCalls direct(Schedd schedd) {
        return new SchedulerCalls(schedd, Runnable::run, Runnable::run, Runnable::run);
    }

    Schedd schedd() {
        return schedd;
    }

    /**
     * {@code hook} hears why when the scheduler refuses a call because a runner was started in this one's
     * place ({@link RunnerGeneration#replaced}): on the calling thread, and the call's outcome never reaches
     * the loop, so the runner acts on nothing more.
     */
    void whenReplaced(Consumer<String> hook) {
        this.replaced = hook;
    }

    long instance() {
        return schedd.instance();
    }

    /** Asks for nodes on the grows' lane; {@code then} runs on the loop with the grant or the failure. */
    <T> void grow(Function<Schedd, T> call, Consumer<Outcome<T>> then) {
        on(grows, call, then);
    }

    /** Any other call, on the other lane; {@code then} runs on the loop with its outcome. */
    <T> void ask(Function<Schedd, T> call, Consumer<Outcome<T>> then) {
        on(others, call, then);
    }

    /** A call whose answer changes nothing (a release, the master's address): {@code failed} runs on the loop if it fails. */
    void tell(Consumer<Schedd> call, Consumer<Failure> failed) {
        on(others, s -> {
            call.accept(s);
            return Boolean.TRUE;
        }, outcome -> {
            if (!outcome.answered()) {
                failed.accept(outcome.failure());
            }
        });
    }

    private <T> void on(Executor lane, Function<Schedd, T> call, Consumer<Outcome<T>> then) {
        lane.execute(() -> {
            Outcome<T> outcome;
            try {
                outcome = Outcome.of(call.apply(schedd));
            } catch (Failure e) {
                if (RunnerGeneration.replaced(e)) {
                    replaced.accept(e.getMessage());
                    return;
                }
                outcome = Outcome.failed(e);
            } catch (RuntimeException e) {
                outcome = Outcome.failed(new Refused("calling the scheduler failed: " + e));
            }
            Outcome<T> done = outcome;
            loop.execute(() -> then.accept(done));
        });
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        for (Executor lane : new Executor[] {grows, others}) {
            if (lane instanceof ExecutorService service) {
                service.shutdownNow();
            }
        }
    }
}
