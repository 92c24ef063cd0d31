package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The initial phase, as in the paper: the master first; once it has reported its address, the
 * orchestrator nodes and the initial workers; once they have reported in (or the time given them has
 * passed, going on without them), the instance runs. A runner started again mid-deployment goes on
 * from where its predecessor was ({@link #requested}). A master whose node is refused waits for one, asked
 * for again every {@link MasterKeeper#RETRY} ({@link #retryIfDue}): a site held by another user's work
 * hands over when that work ends. Each step runs on the loop; the runner's {@code deploy} waits between them.
 */
final class InitialDeployment {
    private final Entities entities;
    private final Resizer resizer;
    private final Deployd deployd;
    private final MasterKeeper master;
    private final Lifecycle lifecycle;
    private final Events events;
    private final InstantSource clock;
    private final Consumer<String> home;
    /** Whether the orchestrators and initial workers were asked for (the master had reported in). */
    private boolean requested;
    /** The grows of the orchestrators and initial workers: the instance does not run before they are answered. */
    private CompletableFuture<Void> asked = CompletableFuture.completedFuture(null);
    /** When to ask again for the master's node, its last grow refused (null while none is refused). */
    private Instant retry;
    /** When the master's node was last refused; null if it never was. */
    private Instant refusedAt;

    /** @param home moves the instance to its home site: where its master runs */
    InitialDeployment(Entities entities, Resizer resizer, Deployd deployd, MasterKeeper master, Lifecycle lifecycle,
                      Events events, InstantSource clock, Consumer<String> home) {
        this.entities = entities;
        this.resizer = resizer;
        this.deployd = deployd;
        this.master = master;
        this.lifecycle = lifecycle;
        this.events = events;
        this.clock = clock;
        this.home = home;
    }

    boolean requested() {
        return requested;
    }

    void restore(boolean kept) {
        requested = kept;
    }

    /** Asks for the master's node, unless it has one. */
    void begin() {
        if (entities.master().isEmpty()) {
            askMaster("initial deployment: the master");
        }
    }

    /**
     * Each tick: a master whose node was refused (its site full or held by another user's work) is asked
     * for again every {@link MasterKeeper#RETRY}, so that the instance gets the node once the site frees.
     */
    void retryIfDue(Instant now) {
        if (retry == null || now.isBefore(retry) || requested || entities.master().isPresent()
                || !lifecycle.is(FrameworkRunner.State.DEPLOYING)) {
            return;
        }
        askMaster("initial deployment: the master, asked again");
    }

    /**
     * Whether the master's node was refused within the last {@code period}: the master waited for a node,
     * and the deployment's time-out counts again from its grant.
     */
    boolean masterRefusedWithin(Duration period) {
        return refusedAt != null && refusedAt.isAfter(clock.instant().minus(period))
                && lifecycle.is(FrameworkRunner.State.DEPLOYING);
    }

    private void askMaster(String reason) {
        retry = null;
        resizer.deploy(Entities.MASTER, 1, reason).whenComplete((result, failure) -> {
            if (failure != null || result.granted() == 0) {
                refusedAt = clock.instant();
                retry = refusedAt.plus(MasterKeeper.RETRY);
            }
        });
    }

    /** The master runs, or the deployment is over (failed). */
    boolean masterIn() {
        return running(Entities.MASTER) || !lifecycle.is(FrameworkRunner.State.DEPLOYING);
    }

    /**
     * The master reported in (within {@code timeout}, or the instance fails): the FrameworkJobManager
     * learns its address, the instance moves to its site, and the orchestrators and initial workers
     * are asked for. False when the deployment failed.
     */
    boolean rest(Duration timeout, MasterKeeper.Ending ending) {
        Optional<Entity> in = entities.master().filter(Entity::running);
        if (in.isEmpty() || !lifecycle.is(FrameworkRunner.State.DEPLOYING)) {
            ending.end(FrameworkRunner.State.FAILED, "the master did not report in within " + timeout.toSeconds() + " s");
            return false;
        }
        if (!requested) {
            master.first(in.get(), clock.instant());
            home.accept(in.get().site());
            asked = CompletableFuture.allOf(initial(Entities.ORCHESTRATOR), initial(Entities.WORKER));
            requested = true;
        }
        return true;
    }

    private CompletableFuture<?> initial(String role) {
        int count = deployd.initial(role);
        if (count == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return resizer.deploy(role, count, "initial deployment: " + count + " " + role + (count == 1 ? "" : "s"))
                .handle((r, e) -> null);
    }

    /** Every entity asked for has its answer and runs, or the deployment is over. */
    boolean allIn() {
        return asked.isDone() && entities.all().stream().allMatch(Entity::running)
                || !lifecycle.is(FrameworkRunner.State.DEPLOYING);
    }

    /** The instance runs, {@code took} after the deployment began; false when it had ended meanwhile. */
    boolean done(Duration took, Instant now) {
        if (!lifecycle.is(FrameworkRunner.State.DEPLOYING)) {
            return false;
        }
        lifecycle.move(FrameworkRunner.State.RUNNING);
        events.add(now, "initial deployment " + (entities.all().stream().allMatch(Entity::running) ? "done"
                : "timed out, going on") + " in " + took.toMillis() / 1000.0 + " s: " + entities.all().size() + " nodes");
        return true;
    }

    private boolean running(String role) {
        return entities.role(role).stream().anyMatch(Entity::running);
    }
}
