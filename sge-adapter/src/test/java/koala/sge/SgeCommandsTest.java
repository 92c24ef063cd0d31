package koala.sge;

import koala.resourcemanager.ManagerUnreachable;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import koala.grid.CellEnvironment;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Commands run with the cell's environment, and a command that hangs is killed at its time-out. */
class SgeCommandsTest {
    /** A "cell" whose client commands are the machine's own: sleep, echo, sh. */
    private static final CellEnvironment CELL = new CellEnvironment(Path.of("/var/lib/gridengine"), "fs9", 6444, 6445,
            Path.of("/bin"));
    private final ExecutorService caller = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        caller.shutdownNow();
    }

    @Test
    void aCommandThatHangsFailsAtItsTimeOutNamingItAndIsKilled() {
        SgeCommands sge = new SgeCommands(CELL, Duration.ofMillis(300));

        CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> sge.run("sleep", "30"), caller);

        assertThat(run).failsWithin(Duration.ofSeconds(2)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().isInstanceOf(ManagerUnreachable.class)
                .withMessage("sleep 30 did not answer within 300 ms");
        Awaitility.await("the sleep killed").atMost(Duration.ofSeconds(2)).until(() -> ProcessHandle.current().descendants()
                .noneMatch(p -> p.info().commandLine().orElse("").contains("sleep 30")));
    }

    @Test
    void aHungCommandsChildIsKilledTooAndDoesNotHoldTheCallerOnItsOutput() {
        SgeCommands sge = new SgeCommands(CELL, Duration.ofMillis(300));

        // the shell waits for a child that holds the same output pipe
        CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> sge.run("sh", "-c", "sleep 31; true"), caller);

        assertThat(run).failsWithin(Duration.ofSeconds(2)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().withMessage("sh -c sleep 31; true did not answer within 300 ms");
        Awaitility.await("the shell's sleep killed").atMost(Duration.ofSeconds(2)).until(() -> ProcessHandle.allProcesses()
                .noneMatch(p -> p.info().commandLine().orElse("").contains("sleep 31")));
    }

    @Test
    void outputAndTheCellsEnvironmentReachTheCaller() {
        SgeCommands sge = new SgeCommands(CELL, Duration.ofSeconds(10));

        assertThat(sge.run("sh", "-c", "echo $SGE_CELL:$SGE_QMASTER_PORT")).isEqualTo("fs9:6444\n");
    }

    @Test
    void aFailingCommandGivesTheLastLineOfWhatItSaid() {
        SgeCommands sge = new SgeCommands(CELL, Duration.ofSeconds(10));

        CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> sge.run("sh", "-c",
                "echo 'error: commlib error' >&2; echo 'error: unable to contact qmaster' >&2; exit 1"), caller);

        assertThat(run).failsWithin(Duration.ofSeconds(10)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().withMessage("unable to contact qmaster");
    }
}
