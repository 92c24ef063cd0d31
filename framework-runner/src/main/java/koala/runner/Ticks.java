package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import koala.api.scheduler.JobView;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;
import koala.runner.SchedulerCalls.Outcome;

/**
 * What the runner does every tick (each second): a round of steps on the loop, each taken when the
 * scheduler's answer to the one before has come back. The settings are re-read; a look at the
 * allocation is reconciled ({@link Reconciler}: lost nodes, grants of the grid's arbitration, an
 * ended allocation) or, while the scheduler is silent, nothing else is done; the running workers'
 * activity is reported for sharing the grid and the arbitration's answer kept; the initial
 * deployment's master refused a node is asked for again; the sites down are asked of the scheduler
 * when a silent entity runs on a remote site or a lost master waits for a node; a master waiting for
 * a node is asked for again (not counted as a restart while its site is down); silent entities are
 * lost (not while they may be behind a cut of their site's link); and on each sample period, while
 * the master serves, the policies decide. One round at a time: a tick that finds one under way (the
 * scheduler is slow) does nothing, and a sample waits for the one before it. Lives on the loop.
 */
final class Ticks {
    private final InstantSource clock;
    private final SiteSettings settings;
    private final Runnable applySettings;
    private final Events events;
    private final Lifecycle lifecycle;
    private final Entities entities;
    private final Reconciler reconciler;
    private final GridShare share;
    private final SchedulerCalls calls;
    private final Resizer resizer;
    private final MasterKeeper master;
    private final InitialDeployment deployment;
    private final Supplier<Duration> period;
    /** The policies' latest sample; whether a sample waits for the grows before it; whether a round is under way. */
    private Instant lastSample;
    private boolean sampling;
    private boolean rounding;

    /**
     * @param applySettings hands the settings in force to the policies (after a change was read)
     * @param period        the sample period in force
     */
    Ticks(InstantSource clock, SiteSettings settings, Runnable applySettings, Events events, Lifecycle lifecycle,
          Entities entities, Reconciler reconciler, GridShare share, SchedulerCalls calls, Resizer resizer,
          MasterKeeper master, InitialDeployment deployment, Supplier<Duration> period) {
        this.clock = clock;
        this.settings = settings;
        this.applySettings = applySettings;
        this.events = events;
        this.lifecycle = lifecycle;
        this.entities = entities;
        this.reconciler = reconciler;
        this.share = share;
        this.calls = calls;
        this.resizer = resizer;
        this.master = master;
        this.deployment = deployment;
        this.period = period;
    }

    /** The policies' latest sample: what the durable state keeps. */
    Instant lastSample() {
        return lastSample;
    }

    /** The next sample is one period after {@code at} (the instance began to run, or was taken over). */
    void sampledAt(Instant at) {
        lastSample = at;
    }

    /** The settings, then a look at the allocation; the rest follows as the scheduler answers. */
    void round() {
        if (lifecycle.ended() || rounding) {
            return;
        }
        Instant now = clock.instant();
        settings.reload().ifPresent(change -> {
            events.add(now, change);
            applySettings.run();
        });
        rounding = true;
        reconciler.look(inRound(this::looked));
    }

    private void looked(Outcome<JobView> outcome) {
        if (!reconciler.answers(outcome, clock.instant()) || lifecycle.ended()) {
            rounding = false;
            return;
        }
        ShareReport report = share.report(entities);
        calls.ask(s -> s.report(report), inRound(this::reported));
    }

    /** The arbitration's answer (a scheduler that does not take the report changes nothing), then the sites down if needed. */
    private void reported(Outcome<ShareOrders> outcome) {
        Instant now = clock.instant();
        if (outcome.answered() && !lifecycle.ended()) {
            share.answered(outcome.value(), resizer.policy().kind().keepsInitialWorkers(), events, now);
            resizer.arbitrated(outcome.value().arbitrated());
        }
        if (!lifecycle.ended()) {
            deployment.retryIfDue(now);
        }
        if (!lifecycle.ended() && (reconciler.needsSitesDown(now) || master.waitsForNode())) {
            // the sites the scheduler cannot reach now; none when it cannot say
            calls.ask(Schedd::sitesDown, inRound(o -> heard(o.answered() ? o.value() : Set.of())));
        } else {
            heard(Set.of());
        }
    }

    private void heard(Set<String> down) {
        rounding = false;
        if (lifecycle.ended()) {
            return;
        }
        Instant now = clock.instant();
        master.retryIfDue(now, down);
        if (lifecycle.ended()) {
            return;
        }
        reconciler.silent(now, down);
        if (lifecycle.is(FrameworkRunner.State.RUNNING) && !now.isBefore(lastSample.plus(period.get()))
                && masterServes() && !sampling) {
            lastSample = now;
            sampling = true;
            resizer.sample(share).whenComplete((done, failure) -> sampling = false);
        }
    }

    /** A step of the round; one that fails ends the round, so that the next tick starts one. */
    private <T> Consumer<T> inRound(Consumer<T> step) {
        return value -> {
            try {
                step.accept(value);
            } catch (RuntimeException e) {
                rounding = false;
                throw e;
            }
        };
    }

    /** Whether the master runs: workers deployed without it would find no master to join. */
    private boolean masterServes() {
        return entities.master().filter(Entity::running).isPresent();
    }
}
