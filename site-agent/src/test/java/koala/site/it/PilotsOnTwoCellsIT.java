package koala.site.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import koala.api.site.CellJob;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.api.site.PilotStatus;
import koala.api.site.SiteAgentClient;
import koala.http.ApiException;
import koala.process.AgentProcess;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Two site agents on two cells at once, each with its own DRMAA session, against real SGE. */
class PilotsOnTwoCellsIT {
    private static AgentProcess first;
    private static AgentProcess second;
    private static Path outputs;

    @BeforeAll
    static void startAgents() throws Exception {
        first = TestGrid.startAgent(TestGrid.site(0));
        second = TestGrid.startAgent(TestGrid.site(1));
        TestGrid.awaitUp(first);
        TestGrid.awaitUp(second);
        // the jobs run on the cells' compute nodes, which see the account's home, not this machine's /tmp
        outputs = koala.grid.Accounts.directoryOf(TestGrid.site(0).agentUser(),
                "koala-it-" + Long.toHexString(System.nanoTime()));
    }

    @AfterAll
    static void stopAgents() {
        first.close();
        second.close();
    }

    @Test
    void pilotsOnBothCellsRunInTheirOwnCellAndEndWithTheirExitStatus() throws Exception {
        SiteAgentClient a = first.client();
        SiteAgentClient b = second.client();
        PilotStatus okOnA = a.submit(queueReporter("koala-it-ok", 0, "a-ok"));
        PilotStatus failOnA = a.submit(queueReporter("koala-it-fail", 7, "a-fail"));
        PilotStatus okOnB = b.submit(queueReporter("koala-it-ok", 0, "b-ok"));
        PilotStatus failOnB = b.submit(queueReporter("koala-it-fail", 42, "b-fail"));

        assertThat(awaitEnd(a, okOnA)).satisfies(s -> done(s, 0));
        assertThat(awaitEnd(a, failOnA)).satisfies(s -> done(s, 7));
        assertThat(awaitEnd(b, okOnB)).satisfies(s -> done(s, 0));
        assertThat(awaitEnd(b, failOnB)).satisfies(s -> done(s, 42));

        // each job ran in the queue of the cell its agent is bound to
        String queueA = TestGrid.site(0).cell().cell() + ".q";
        String queueB = TestGrid.site(1).cell().cell() + ".q";
        assertThat(output("a-ok")).isEqualTo(queueA);
        assertThat(output("a-fail")).isEqualTo(queueA);
        assertThat(output("b-ok")).isEqualTo(queueB);
        assertThat(output("b-fail")).isEqualTo(queueB);
    }

    @Test
    void aKillEndsARunningPilot() {
        SiteAgentClient a = first.client();
        PilotStatus pilot = a.submit(PilotSpec.of("koala-it-long", "/bin/sleep", "600"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.status(pilot.id()).state() == PilotState.RUNNING);
        assertThat(a.snapshot().jobs()).filteredOn(j -> j.id().equals(pilot.id())).singleElement()
                .satisfies(j -> assertThat(j.koala()).isTrue());

        a.kill(pilot.id());

        PilotStatus end = awaitEnd(a, pilot);
        assertThat(end.state()).isEqualTo(PilotState.FAILED);
        assertThat(end.reason()).startsWith("killed by KOALA");
        Awaitility.await().atMost(Duration.ofSeconds(15))
                .until(() -> a.snapshot().jobs().stream().map(CellJob::id).noneMatch(pilot.id()::equals));
    }

    /**
     * A pilot claiming {@code -l h_vmem=256M} whose two processes together grow past it (160 MiB held,
     * then 32 MiB more every half second up to 192 MiB, each under the per-process limit) is killed by
     * SGE's execution daemon, and the agent says so as data. Costs about 5 s.
     */
    @Test
    void aPilotPastItsMemoryClaimIsStoppedBySgeAndSaysSo() throws Exception {
        SiteAgentClient a = first.client();
        Path hog = outputs.resolve("hog.sh");
        Files.writeString(hog, """
                python3 -c 'import time; b = bytearray(160 << 20); time.sleep(60)' &
                sleep 1
                python3 -c 'import time
                b = []
                for i in range(6):
                    b.append(bytearray(32 << 20)); time.sleep(0.5)
                time.sleep(60)'
                wait
                """);
        Files.setPosixFilePermissions(hog, PosixFilePermissions.fromString("rwxr-xr-x"));

        PilotStatus pilot = a.submit(PilotSpec.of("koala-it-hog", "/bin/sh", hog.toString()).withNativeSpec("-l h_vmem=256M"));
        PilotStatus end = awaitEnd(a, pilot);

        assertThat(end.state()).isEqualTo(PilotState.FAILED);
        assertThat(end.exceededMemory()).isTrue();
        assertThat(end.memory().claimMib()).isEqualTo(256L);
        assertThat(end.memory().maxMib()).isGreaterThan(256L);
        assertThat(end.reason()).startsWith("exceeded its 256M memory (max ").endsWith("): stopped by SGE");
    }

    @Test
    void badRequestsAreRefusedWithTheFieldAndNothingIsSubmitted() {
        SiteAgentClient a = first.client();
        int before = a.pilots().size();
        assertThatThrownBy(() -> a.submit(PilotSpec.of("koala-it", "sleep", "1")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.field()).isEqualTo("command");
                    assertThat(e.getMessage()).contains("absolute path");
                });
        assertThatThrownBy(() -> a.status("999999"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
        assertThat(a.pilots()).hasSize(before);
    }

    private PilotSpec queueReporter(String name, int exit, String file) {
        return PilotSpec.of(name, "/bin/sh", "-c", "echo $QUEUE; exit " + exit)
                .withOutput(outputs.resolve(file).toString(), null);
    }

    private String output(String file) throws Exception {
        return Files.readString(outputs.resolve(file)).trim();
    }

    static PilotStatus awaitEnd(SiteAgentClient agent, PilotStatus pilot) {
        return Awaitility.await("pilot " + pilot.id() + " ends").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> agent.status(pilot.id()), s -> s.state().isFinal());
    }

    private static void done(PilotStatus s, int exit) {
        assertThat(s.state()).isEqualTo(PilotState.DONE);
        assertThat(s.exitStatus()).isEqualTo(exit);
        assertThat(s.finishedAt()).isAfterOrEqualTo(s.submittedAt());
    }
}
