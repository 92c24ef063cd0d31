package koala.scheduler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import koala.scheduler.claiming.NodeClaim;

/**
 * Pilot submissions, off the scheduler's loop. Each site's go one after another on a thread of that
 * site's own, so a cell whose qmaster stalls holds up only its own claims (its agent's time-out ends
 * each one), never the loop and never another site's. The outcome comes back to the loop as an
 * event, where the claim it answers is looked up again: by then the node may have arrived (SGE can
 * start a pilot before its submit returns), been released, or been claimed anew elsewhere.
 */
final class Submissions implements AutoCloseable {
    /** The pilot's SGE job id, or why the site refused it. */
    record Outcome(String pilot, String failure) {
        boolean submitted() {
            return pilot != null;
        }
    }

    /** Submits a node's pilot, asking SGE for {@code claim}, blocking, within the agent's time-out; returns the SGE job id. */
    @FunctionalInterface
    interface Submit {
        String submit(NodeClaim node, String owner, PilotClaim claim);
    }

    private final Submit submit;
    private final Executor loop;
    private final Executor afterCommit;
    private final java.util.function.Function<String, Executor> siteThreads;
    private final Map<String, Executor> sites = new ConcurrentHashMap<>();
    private final Map<String, ExecutorService> started = new ConcurrentHashMap<>();

    /**
     * Submits on a daemon thread per site; outcomes are handed to {@code loop}. A submission asked for
     * in a unit of work leaves for its site's thread through {@code afterCommit}, once the unit is
     * committed: the node is on disk before its pilot can exist in SGE.
     */
    static Submissions threaded(Submit submit, Executor loop, Executor afterCommit) {
        return new Submissions(submit, loop, null, afterCommit);
    }

    /** Submits on the caller's thread and hands the outcome over at once (tests, and the simulator's way). */
    static Submissions direct(Submit submit) {
        return new Submissions(submit, Runnable::run, site -> Runnable::run, Runnable::run);
    }

    /** Submits on {@code sites} (one executor for every site), outcomes handed to {@code loop}: for tests that hold submissions back. */
    static Submissions on(Submit submit, Executor sites, Executor loop) {
        return new Submissions(submit, loop, site -> sites, Runnable::run);
    }

    private Submissions(Submit submit, Executor loop, java.util.function.Function<String, Executor> siteThreads,
                        Executor afterCommit) {
        this.submit = submit;
        this.loop = loop;
        this.siteThreads = siteThreads;
        this.afterCommit = afterCommit;
    }

    /** Asks for {@code node}'s pilot as {@code owner}'s; {@code then} runs on the loop with the outcome. */
    void submit(NodeClaim node, String owner, Consumer<Outcome> then) {
        submit(node, owner, PilotClaim.NODE, then);
    }

    /** As above, the pilot asking SGE for {@code claim}. */
    void submit(NodeClaim node, String owner, PilotClaim claim, Consumer<Outcome> then) {
        afterCommit.execute(() -> on(node.site()).execute(() -> {
            Outcome outcome;
            try {
                outcome = new Outcome(submit.submit(node, owner, claim), null);
            } catch (RuntimeException e) {
                outcome = new Outcome(null, e.getMessage() == null ? e.toString() : e.getMessage());
            }
            Outcome done = outcome;
            loop.execute(() -> then.accept(done));
        }));
    }

    /**
     * Asks {@code site} something on its thread ({@code call}, blocking within its own time-out);
     * {@code then} gets the answer on the loop, or null when the call failed.
     */
    <T> void ask(String site, java.util.function.Supplier<T> call, Consumer<T> then) {
        afterCommit.execute(() -> on(site).execute(() -> {
            T answer;
            try {
                answer = call.get();
            } catch (RuntimeException e) {
                answer = null;
            }
            T done = answer;
            loop.execute(() -> then.accept(done));
        }));
    }

    /** Runs {@code work} on {@code site}'s thread, after the submissions already asked for there. */
    void onSite(String site, Runnable work) {
        afterCommit.execute(() -> on(site).execute(work));
    }

    private Executor on(String site) {
        return sites.computeIfAbsent(site, s -> {
            if (siteThreads != null) {
                return siteThreads.apply(s);
            }
            ExecutorService thread = Executors.newSingleThreadExecutor(SchedulerDaemon.daemon("submit-" + s));
            started.put(s, thread);
            return thread;
        });
    }

    /**
     * Stops taking submissions. One under way is not waited for: its node is recorded without a
     * pilot, and the next start adopts the pilot by name or claims the node again.
     */
    @Override
    public void close() {
        started.values().forEach(ExecutorService::shutdownNow);
    }
}
