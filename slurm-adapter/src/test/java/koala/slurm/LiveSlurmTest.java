package koala.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.resourcemanager.ClusterLoad;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;
import koala.resourcemanager.ManagerFailure;
import koala.resourcemanager.ManagerLost;
import koala.resourcemanager.ManagerUnreachable;
import koala.resourcemanager.UnknownJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The manager against a real Slurm, run only when {@code -Dslurm.conf=FILE} names one: from a network namespace
 * that reaches its controller ({@code ip netns exec slt-ctl mvn ... -Dslurm.conf=... -Dtest=LiveSlurmTest}),
 * with {@code -Dslurm.restart=SCRIPT} starting its controller again once the check has stopped it, and
 * {@code -Dslurm.out=DIR} a directory its nodes write pilots' output to. Prints what it saw and how long it took.
 */
@EnabledIfSystemProperty(named = "slurm.conf", matches = ".+")
class LiveSlurmTest {
    private final Path conf = Path.of(System.getProperty("slurm.conf"));
    private final String out = System.getProperty("slurm.out", "/tmp");
    private final SlurmResourceManager slurm = SlurmResourceManager.of(Path.of(System.getProperty("slurm.bin", "/usr/bin")),
            conf, System.getProperty("user.name"), Duration.ofSeconds(20), Duration.ofSeconds(5), InstantSource.system());

    @Test
    void pilotsGoInRunEndAndTheControllerGoesAwayAndComesBack() throws Exception {
        slurm.connect();
        say("connected: " + slurm.system() + ", connection " + slurm.connection());
        String exit3 = timed("submit exit 3", () -> slurm.submit(pilot("koala-live-exit3", "/bin/sh", "-c", "exit 3")));
        String sleeper = timed("submit sleep", () -> slurm.submit(pilot("koala-live-sleep", "/bin/sleep", "300")));
        Instant submitted = Instant.now();
        while (slurm.state(sleeper) != PilotState.RUNNING) {
            assertThat(Duration.between(submitted, Instant.now())).isLessThan(Duration.ofSeconds(30));
        }
        say("sleeper RUNNING " + Duration.between(submitted, Instant.now()).toMillis() + " ms after its submit");
        ClusterLoad load = timed("load", () -> slurm.load(j -> j.name().startsWith(PilotSpec.PREFIX)));
        say("load hosts: " + load.hosts());
        say("load queues: " + load.queues());
        say("load jobs: " + load.jobs());
        timed("cancel sleep", () -> {
            slurm.cancel(sleeper);
            return null;
        });
        List<EndedJob> ends = new java.util.ArrayList<>();
        Instant waiting = Instant.now();
        while (ends.size() < 2 && Duration.between(waiting, Instant.now()).toSeconds() < 30) {
            slurm.awaitEnded(Duration.ofSeconds(1)).ifPresent(e -> {
                say("ended " + Duration.between(waiting, Instant.now()).toMillis() + " ms into the wait: " + e);
                ends.add(e);
            });
        }
        assertThat(ends).extracting(EndedJob::end).containsExactlyInAnyOrder(new JobEnd.Exited(3),
                new JobEnd.Deleted("cancelled in Slurm (scancel) before it finished"));
        say("state exit3: " + slurm.state(exit3) + ", sleeper: " + slurm.state(sleeper));
        say("accounting exit3: " + slurm.accounting(exit3) + ", sleeper: " + slurm.accounting(sleeper));
        forgottenJobs();
        refusedSubmit();
        controllerDownAndBack(exit3);
    }

    private void forgottenJobs() throws Exception {
        for (String id : System.getProperty("slurm.forgotten", "").split(",")) {
            if (!id.isBlank()) {
                say("accounting of forgotten job " + id + ": " + slurm.accounting(id));
            }
        }
        assertThat(slurm.accounting("999999")).isEmpty();
        assertThatThrownBy(() -> slurm.state("999999")).isInstanceOf(UnknownJob.class)
                .satisfies(e -> say("state 999999: " + e));
        assertThatThrownBy(() -> slurm.cancel("999999")).isInstanceOf(UnknownJob.class)
                .satisfies(e -> say("cancel 999999: " + e));
    }

    private void refusedSubmit() {
        SlurmCalls calls = new SlurmCalls(SlurmCommands.local(Path.of("/usr/bin"), conf), Duration.ofSeconds(20),
                InstantSource.system());
        assertThatThrownBy(() -> calls.ask("#!/bin/sh\ntrue\n", "sbatch", "--parsable", "--gres=gpu:3", "-o", "/dev/null"))
                .isExactlyInstanceOf(ManagerFailure.class).satisfies(e -> say("sbatch --gres=gpu:3: " + e));
    }

    private void controllerDownAndBack(String known) throws Exception {
        new ProcessBuilder("scontrol", "shutdown", "slurmctld").inheritIO().start().waitFor();
        say("slurmctld shut down");
        Instant t = Instant.now();
        assertThatThrownBy(slurm::probe).isInstanceOf(ManagerUnreachable.class)
                .satisfies(e -> say("probe after " + Duration.between(t, Instant.now()).toMillis() + " ms: " + e));
        Instant s = Instant.now();
        assertThatThrownBy(() -> slurm.state(known)).isInstanceOf(ManagerLost.class)
                .satisfies(e -> say("state after " + Duration.between(s, Instant.now()).toMillis() + " ms: " + e));
        assertThatThrownBy(() -> slurm.load(j -> false)).isInstanceOf(ManagerUnreachable.class)
                .satisfies(e -> say("load: " + e));
        slurm.disconnect();
        assertThatThrownBy(slurm::connect).isInstanceOf(ManagerLost.class).satisfies(e -> say("connect: " + e));
        new ProcessBuilder(System.getProperty("slurm.restart")).inheritIO().start().waitFor();
        Instant r = Instant.now();
        Optional<RuntimeException> down = Optional.of(new RuntimeException());
        while (down.isPresent() && Duration.between(r, Instant.now()).toSeconds() < 30) {
            try {
                slurm.probe();
                down = Optional.empty();
            } catch (ManagerUnreachable e) {
                down = Optional.of(e);
            }
        }
        say("probe answers " + Duration.between(r, Instant.now()).toMillis() + " ms after the restart");
        slurm.connect();
        say("connected again: connection " + slurm.connection() + ", state of " + known + ": " + slurm.state(known));
    }

    private PilotSpec pilot(String name, String command, String... args) {
        return PilotSpec.of(name, command, args).withOutput(out + "/" + name + ".out", null)
                .withEnv(java.util.Map.of("KOALA_NODE", "live"));
    }

    private interface Work<T> {
        T run() throws Exception;
    }

    private static <T> T timed(String what, Work<T> work) throws Exception {
        long start = System.nanoTime();
        T result = work.run();
        say(what + ": " + (System.nanoTime() - start) / 1_000_000 + " ms -> " + result);
        return result;
    }

    private static void say(String line) {
        System.out.println("[live] " + line);
    }
}
