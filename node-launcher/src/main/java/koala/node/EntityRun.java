package koala.node;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.scheduler.NodeTask;
import koala.common.time.Poll;
import koala.http.ApiException;

/**
 * A framework entity (master, orchestrator, worker) run under its runner's eye. The launcher gives
 * the entity a free port ({@code KOALA_ENTITY_PORT}, which a master listens on), tells the runner
 * where it runs, and then beats: every heartbeat period it sends the CPU utilization of the
 * entity's process tree since the last beat. It stops the entity and gives the node back when the
 * entity ends, when the runner says STOP or disowns the node, or when the runner has not answered
 * for its runner-gone time-out — a runner's death must not hold nodes forever. A silent runner may
 * have been started elsewhere (its host gone, a scheduler on another host took over): a beat that finds
 * it silent asks the scheduler for the node's task again, at most every {@link #ASK_EVERY} (the first
 * time not before {@link #ASK_EVERY} of beating), and the launcher beats to the address it names from
 * then on. The entity finds its instance's
 * token in force in the file {@code KOALA_RUNNER_TOKEN_FILE} names, and its runner's address in the file
 * {@code KOALA_RUNNER_URL_FILE} names ({@link EntityFiles}).
 */
final class EntityRun {
    private static final Duration HELLO_GIVE_UP = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    /** How often at most the scheduler is asked where a silent runner serves now (the first time: into the beating). */
    static final Duration ASK_EVERY = Duration.ofSeconds(5);

    private final NodeTask task;
    private final String node;
    private final String host;
    private final InstantSource clock;
    private final RunnerLine runner;
    private final int cores;
    private final koala.api.runner.RunnerMessages.Startup steps;
    /** The runner's address the scheduler gives the node now; empty when it cannot say. */
    private final java.util.function.Supplier<Optional<String>> runnerNow;

    EntityRun(NodeTask task, String node, String host, int cores, InstantSource clock,
              koala.api.runner.RunnerMessages.Startup steps) {
        this(task, node, host, cores, clock, steps, Optional::empty);
    }

    EntityRun(NodeTask task, String node, String host, int cores, InstantSource clock,
              koala.api.runner.RunnerMessages.Startup steps, java.util.function.Supplier<Optional<String>> runnerNow) {
        this.runnerNow = runnerNow;
        this.task = task;
        this.cores = cores;
        this.steps = steps;
        this.node = node;
        this.host = host;
        this.clock = clock;
        this.runner = new RunnerLine(URI.create(task.environment().get(RunnerClient.URL_VARIABLE)),
                task.environment().getOrDefault(RunnerClient.TOKEN_VARIABLE, ""));
    }

    static boolean wanted(NodeTask task) {
        return task.environment() != null && task.environment().containsKey(RunnerClient.URL_VARIABLE);
    }

    /**
     * Runs the entity until it ends or must stop. When the runner answers its exit with RESTART (a
     * master it keeps), the command starts again here — on the same port when it is free, so that
     * the entity's address stays the same — and the launcher says hello again with it.
     */
    int run() throws InterruptedException {
        try (EntityFiles files = EntityFiles.of(task.environment().getOrDefault(RunnerClient.TOKEN_VARIABLE, ""),
                runner.address().toString())) {
            return run(files);
        }
    }

    private int run(EntityFiles files) throws InterruptedException {
        int port = freePort();
        koala.api.runner.RunnerMessages.Startup first = steps;
        while (true) {
            Map<String, String> env = new HashMap<>(task.environment());
            env.put("KOALA_ENTITY_HOST", host);
            env.put("KOALA_ENTITY_PORT", Integer.toString(port));
            env.put(RunnerClient.TOKEN_FILE_VARIABLE, files.path().toString());
            env.put(RunnerClient.URL_FILE_VARIABLE, files.runnerPath().toString());
            Process entity;
            try {
                entity = NodeLauncher.builder(task, env).start();
            } catch (IOException e) {
                log("cannot start " + task.executable() + ": " + e.getMessage());
                report(127, files);
                return 127;
            }
            Instant started = clock.instant();
            Optional<Orders> orders = hello(new Hello(task.environment().get("KOALA_SITE"), host, port, entity.pid(),
                    first == null ? null : new koala.api.runner.RunnerMessages.Startup(first.launcherStarted(),
                            first.launcherMain(), first.arrived(), first.told(), started, null)));
            if (orders.isEmpty()) {
                stop(entity);
                return 0;
            }
            files.updateToken(orders.get().token());
            int status = watch(entity, orders.get(), files);
            if (status < 0 || !report(status, files)) {
                return Math.max(status, 0);
            }
            log("runner says restart the entity (it ended with status " + status + ")");
            first = null; // a restart is not a grow: no start-up steps to report
            port = portAgain(port);
        }
    }

    /** The entity's previous port when nothing listens there now, else a new one. */
    static int portAgain(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return port;
        } catch (IOException e) {
            return freePort();
        }
    }

    /** Beats until the entity ends (its status) or must be stopped (-1 for "stopped"). */
    private int watch(Process entity, Orders orders, EntityFiles files) throws InterruptedException {
        CpuSampler sampler = new CpuSampler(entity.pid(), java.nio.file.Path.of("/proc"), cores, clock);
        CpuSampler.Sample last = sampler.sample();
        Instant heard = clock.instant();
        Instant asked = heard;
        Duration gone = Duration.ofMillis(orders.runnerGoneMillis());
        long period = orders.heartbeatMillis();
        while (!entity.waitFor(period, TimeUnit.MILLISECONDS)) {
            CpuSampler.Sample now = sampler.sample();
            double cpu = sampler.utilization(last, now).orElse(0);
            last = now;
            try {
                HeartbeatReply reply = runner.heartbeat(node, cpu);
                heard = clock.instant();
                files.updateToken(reply.token());
                period = reply.heartbeatMillis() > 0 ? reply.heartbeatMillis() : period;
                if (reply.stop()) {
                    log("runner says stop");
                    return stop(entity);
                }
            } catch (ApiException e) {
                if (e.refused()) {
                    log("runner disowns node " + node + ": " + e.getMessage());
                    return stop(entity);
                }
                if (!clock.instant().isBefore(heard.plus(gone))) {
                    log("runner silent for " + gone.toSeconds() + " s; stopping the entity, giving the node back");
                    return stop(entity);
                }
                if (!clock.instant().isBefore(asked.plus(ASK_EVERY))) {
                    asked = clock.instant();
                    followRunner(files);
                }
            }
        }
        log("entity ended with status " + entity.exitValue());
        return entity.exitValue();
    }

    /** Beats to the runner's address the scheduler names now, when it names another (the entity is told too). */
    private void followRunner(EntityFiles files) {
        Optional<String> now = runnerNow.get();
        if (now.isPresent() && !now.get().equals(runner.address().toString())) {
            log("runner silent at " + runner.address() + "; the scheduler says it serves at " + now.get() + " now");
            runner.moveTo(URI.create(now.get()));
            files.runnerMoved(now.get());
        }
    }

    private Optional<Orders> hello(Hello hello) {
        Orders[] orders = new Orders[1];
        new Poll(clock, Duration.ofMillis(500)).until(() -> {
            try {
                orders[0] = runner.hello(node, hello);
                return true;
            } catch (ApiException e) {
                if (e.refused()) {
                    log("runner did not take node " + node + ": " + e.getMessage());
                    return true;
                }
                return false;
            }
        }, HELLO_GIVE_UP);
        return Optional.ofNullable(orders[0]);
    }

    static int stop(Process entity) throws InterruptedException {
        entity.descendants().forEach(ProcessHandle::destroy);
        entity.destroy();
        if (!entity.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            entity.descendants().forEach(ProcessHandle::destroyForcibly);
            entity.destroyForcibly();
            entity.waitFor();
        }
        return 0;
    }

    /** Tells the runner the entity ended; true when it answers RESTART. */
    private boolean report(int status, EntityFiles files) {
        try {
            HeartbeatReply reply = runner.exited(node, status);
            files.updateToken(reply.token());
            return HeartbeatReply.RESTART.equals(reply.action());
        } catch (ApiException e) {
            log("could not tell the runner the entity ended: " + e.getMessage());
            return false;
        }
    }

    /** Outside the ephemeral range: the launcher's own calls to the runner must not take it first. */
    private static int freePort() {
        return koala.common.net.FreePort.any();
    }

    private static void log(String message) {
        System.err.println("[koala node] " + message);
    }
}
