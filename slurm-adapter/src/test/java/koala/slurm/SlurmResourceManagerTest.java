package koala.slurm;

import static koala.slurm.CapturedSlurm.failed;
import static koala.slurm.CapturedSlurm.printed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.resourcemanager.EndedJob;
import koala.resourcemanager.JobEnd;
import koala.resourcemanager.ManagerFailure;
import koala.resourcemanager.ManagerLost;
import koala.resourcemanager.ManagerUnreachable;
import koala.resourcemanager.ResourceManager;
import koala.resourcemanager.UnknownJob;
import org.junit.jupiter.api.Test;

/**
 * The manager fed what Slurm 22.05.8 answered on a cluster of two hosts of 2 cores, 1000 MB and 2 GPUs each
 * ({@code CR_Core}, accounting off, a jobcomp file; see {@code captures/README.md}): pilot 4 ran {@code exit 3},
 * pilot 5 {@code sleep} was cancelled, pilot 7 killed itself with SIGKILL, local job 8 and pilot 9 ran, and
 * pilot 10 waited for resources ({@code squeue-live.json}).
 */
class SlurmResourceManagerTest {
    private static final String SBATCH_EXIT3 = "sbatch --parsable -J koala-live-exit3 -N 1 -n 1 -c 1"
            + " -o /var/tmp/slt-helper/out/koala-live-exit3.out --export=NONE";
    private static final String SACCT_C = "sacct -c -j %s -P -n -o JobID,State,ExitCode,NodeList";

    private final CapturedSlurm slurm = new CapturedSlurm();
    private final List<Duration> pauses = new ArrayList<>();
    private Instant now = Instant.parse("2026-12-06T15:00:00Z");
    private final SlurmResourceManager manager = new SlurmResourceManager(slurm, Duration.ofSeconds(20),
            Duration.ofSeconds(5), "koala", () -> now, d -> {
                pauses.add(d);
                now = now.plus(d);
            }, ZoneOffset.UTC);

    @Test
    void aConnectionIsAControllerThatAnsweredAndTellsItsVersion() throws Exception {
        slurm.on("scontrol show config", printed("scontrol-show-config.txt"));
        assertThat(manager.system()).isEmpty();

        manager.connect();
        manager.connect(); // already open: Slurm is not asked again
        assertThat(List.of(manager.system(), manager.connected(), manager.connection()))
                .containsExactly("slurm 22.05.8", true, 1);
        manager.disconnect();
        manager.connect();

        assertThat(manager.connection()).isEqualTo(2);
        assertThat(slurm.lines()).containsExactly("scontrol show config", "scontrol show config");
        assertThat(manager.name()).isEqualTo("Slurm");
    }

    @Test
    void withItsControllerGoneNoConnectionOpens() {
        slurm.on("scontrol show config", failed(1, "down-scontrol-show-config.err"));

        assertThatThrownBy(manager::connect).isInstanceOf(ManagerLost.class).hasMessage("scontrol show config:"
                + " slurm_load_ctl_conf error: Unable to contact slurm controller (connect failure)");
        assertThat(List.of(manager.connected(), manager.connection())).containsExactly(false, 0);
    }

    @Test
    void aPilotIsSubmittedWithItsScriptOnSbatchsInput() throws Exception {
        connect();
        slurm.on(SBATCH_EXIT3, SlurmCommands.Answer.ok("4\n"));

        assertThat(manager.submit(exit3())).isEqualTo("4");
        assertThat(slurm.ran().get(1).input()).isEqualTo("""
                #!/bin/sh
                export KOALA_NODE='live'
                exec '/bin/sh' '-c' 'exit 3'
                """);
    }

    @Test
    void aSubmitSlurmRefusesIsItsFailureAndOneThatFindsNoControllerLosesTheConnection() throws Exception {
        connect();
        slurm.on(SBATCH_EXIT3, failed(1, "sbatch-refused.err"), failed(1, "down-sbatch.err"),
                SlurmCommands.Answer.silent());

        assertThatThrownBy(() -> manager.submit(exit3())).isExactlyInstanceOf(ManagerFailure.class)
                .hasMessage(SBATCH_EXIT3 + ": Batch job submission failed: Requested node configuration is not available");
        assertThatThrownBy(() -> manager.submit(exit3())).isInstanceOf(ManagerLost.class)
                .hasMessage(SBATCH_EXIT3 + ": Batch job submission failed: Unable to contact slurm controller (connect failure)");
        assertThatThrownBy(() -> manager.submit(exit3())).isInstanceOf(ManagerLost.class)
                .hasMessage(SBATCH_EXIT3 + ": Slurm's controller is gone")
                .cause().hasMessage(SBATCH_EXIT3 + " did not answer within 20 s");
    }

    @Test
    void nothingIsSubmittedWithoutAConnection() {
        assertThatThrownBy(() -> manager.submit(exit3())).isInstanceOf(ManagerLost.class)
                .hasMessage("no connection to Slurm's controller");
        assertThat(slurm.lines()).isEmpty();
    }

    @Test
    void aJobsStateIsWhatSqueueSaysAndAJobItNoLongerListsIsUnknown() throws Exception {
        slurm.on("squeue -h -t all -j 4 -o %i|%T|%r", printed("squeue-state-4.txt"))
                .on("squeue -h -t all -j 9 -o %i|%T|%r", SlurmCommands.Answer.ok("9|RUNNING|None\n"))
                .on("squeue -h -t all -j 10 -o %i|%T|%r", SlurmCommands.Answer.ok("10|PENDING|Resources\n"))
                .on("squeue -h -t all -j 999999 -o %i|%T|%r", failed(1, "squeue-state-unknown.err"));

        // 4 ran its script to its end, "exit 3": DONE, as SGE's jobs that exit non-zero
        assertThat(List.of(manager.state("4"), manager.state("9"), manager.state("10")))
                .containsExactly(PilotState.DONE, PilotState.RUNNING, PilotState.QUEUED);
        assertThatThrownBy(() -> manager.state("999999")).isInstanceOf(UnknownJob.class)
                .hasMessage("squeue -h -t all -j 999999 -o %i|%T|%r: slurm_load_jobs error: Invalid job id specified");
    }

    @Test
    void scancelSaysWhichJobsItDoesNotKnowWhenAskedVerbosely() throws Exception {
        slurm.on("scancel -v 9", SlurmCommands.Answer.failed(0, CapturedSlurm.capture("scancel-v-running.err")))
                .on("scancel -v 4", SlurmCommands.Answer.failed(0, CapturedSlurm.capture("scancel-v-ended.err")))
                .on("scancel -v 999999", SlurmCommands.Answer.failed(0, CapturedSlurm.capture("scancel-v-unknown.err")))
                .on("scancel -v 8", failed(8, "down-scancel.err"));

        manager.cancel("9");
        manager.cancel("4"); // it has ended already: nothing is left to cancel

        assertThatThrownBy(() -> manager.cancel("999999")).isInstanceOf(UnknownJob.class)
                .hasMessage("scancel 999999: Invalid job id specified");
        assertThatThrownBy(() -> manager.cancel("8")).isInstanceOf(ManagerLost.class).hasMessage("scancel 8:"
                + " Kill job error on job id 8: Unable to contact slurm controller (connect failure)");
    }

    /**
     * Pilots 4, 5 and 9 submitted in that order: the first look finds 4 and 5 ended and tells 4; the next tells
     * 5 without waiting; 9 still runs, so the third call looks at t = 0, 1, 2 and 3 s and gives up at 3 s.
     */
    @Test
    void theConnectionsJobsAreToldOnceEachAsTheyEnd() throws Exception {
        connect();
        slurm.on(SBATCH_EXIT3, SlurmCommands.Answer.ok("4\n"), SlurmCommands.Answer.ok("5\n"),
                SlurmCommands.Answer.ok("9\n")).on("squeue --json", printed("squeue-live.json"));
        for (int i = 0; i < 3; i++) {
            manager.submit(exit3());
        }

        assertThat(manager.awaitEnded(Duration.ofSeconds(3))).contains(new EndedJob("4", new JobEnd.Exited(3)));
        assertThat(manager.awaitEnded(Duration.ofSeconds(3))).contains(new EndedJob("5",
                new JobEnd.Deleted("cancelled in Slurm (scancel) before it finished")));
        assertThat(pauses).isEmpty();
        assertThat(manager.awaitEnded(Duration.ofSeconds(3))).isEmpty();

        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(slurm.lines().stream().filter("squeue --json"::equals)).hasSize(6);
    }

    @Test
    void aNewConnectionWatchesOnlyItsOwnJobs() throws Exception {
        connect();
        slurm.on(SBATCH_EXIT3, SlurmCommands.Answer.ok("4\n"));
        manager.submit(exit3());
        manager.disconnect();
        manager.connect();

        // the agent polls pilots of earlier connections itself: this one has none to look for
        assertThat(manager.awaitEnded(Duration.ofMillis(2500))).isEmpty();
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(500));
        assertThat(slurm.lines()).doesNotContain("squeue --json");
    }

    /** Pilot 7 ended after the controller last listed jobs 1 to 5 ({@code squeue-ended.json}): its record tells. */
    @Test
    void aJobGoneFromTheQueueUnseenIsLookedUpInItsRecord() throws Exception {
        connect();
        slurm.on(SBATCH_EXIT3, SlurmCommands.Answer.ok("7\n"), SlurmCommands.Answer.ok("12\n"))
                .on("squeue --json", printed("squeue-ended.json"))
                .on(SACCT_C.formatted(7), printed("sacct-c.txt"))
                .on(SACCT_C.formatted(12), SlurmCommands.Answer.ok(""));
        manager.submit(exit3());
        manager.submit(exit3());

        assertThat(manager.awaitEnded(Duration.ofSeconds(1))).contains(new EndedJob("7", new JobEnd.Signalled("SIGKILL")));
        assertThat(manager.awaitEnded(Duration.ofSeconds(1))).contains(new EndedJob("12", new JobEnd.Failed(
                "Slurm forgot it before it was seen to end, and keeps no record of how it ended")));
    }

    @Test
    void aControllerGoneWhileWaitingLosesTheConnection() throws Exception {
        connect();
        slurm.on(SBATCH_EXIT3, SlurmCommands.Answer.ok("9\n"))
                .on("squeue --json", SlurmCommands.Answer.ok(CapturedSlurm.capture("down-squeue.out")));
        manager.submit(exit3());

        // squeue --json exits 0 when it cannot reach the controller; its errors say so
        assertThatThrownBy(() -> manager.awaitEnded(Duration.ofSeconds(1))).isInstanceOf(ManagerLost.class)
                .hasMessage("squeue --json: Failed while looking for jobs");
    }

    @Test
    void accountingTellsFromTheQueueWhileSlurmListsTheJobAndFromTheJobcompFileAfter() throws Exception {
        connect();
        slurm.on("squeue --json", printed("squeue-ended.json"));
        List.of("6", "7", "9", "999999").forEach(id -> slurm.on(SACCT_C.formatted(id), SlurmCommands.Answer.ok(
                CapturedSlurm.capture("sacct-c.txt").lines().filter(l -> l.startsWith(id + "|"))
                        .map(l -> l + "\n").reduce("", String::concat))));

        // listed: 5 ran "exit 3", 1 was cancelled, 3 still runs; only the jobcomp file knows 6, 7 and 9
        assertThat(manager.accounting("5")).contains(new JobEnd.Exited(3));
        assertThat(manager.accounting("1")).contains(new JobEnd.Deleted("cancelled in Slurm (scancel) before it finished"));
        assertThat(manager.accounting("3")).isEmpty();
        assertThat(manager.accounting("6")).contains(new JobEnd.Failed("Slurm ended it before it started: FAILED"));
        assertThat(manager.accounting("7")).contains(new JobEnd.Signalled("SIGKILL"));
        assertThat(manager.accounting("9")).contains(new JobEnd.Deleted("cancelled in Slurm (scancel) before it finished"));
        assertThat(manager.accounting("999999")).isEmpty();
        assertThat(slurm.lines()).filteredOn(l -> l.startsWith("sacct")).containsExactly(SACCT_C.formatted(6),
                SACCT_C.formatted(7), SACCT_C.formatted(9), SACCT_C.formatted(999999));
    }

    @Test
    void withNeitherAccountingNorAJobcompFileAForgottenJobHasNoRecord() throws Exception {
        slurm.on("scontrol show config", SlurmCommands.Answer.ok(CapturedSlurm.capture("scontrol-show-config.txt")
                .replace("jobcomp/filetxt", "jobcomp/none")));
        manager.connect();
        slurm.on("squeue --json", printed("squeue-ended.json"));

        assertThat(manager.accounting("7")).isEmpty();
        assertThat(slurm.lines()).containsExactly("scontrol show config", "squeue --json");
    }

    @Test
    void withAccountingOnSacctAsksTheDatabase() throws Exception {
        slurm.on("scontrol show config", SlurmCommands.Answer.ok(CapturedSlurm.capture("scontrol-show-config.txt")
                .replace("accounting_storage/none", "accounting_storage/slurmdbd")));
        manager.connect();
        slurm.on("squeue --json", printed("squeue-ended.json"))
                .on("sacct -X -j 7 -P -n -o JobID,State,ExitCode,NodeList", SlurmCommands.Answer.ok("7|FAILED|0:9|n1\n"));

        assertThat(manager.accounting("7")).contains(new JobEnd.Signalled("SIGKILL"));
    }

    @Test
    void theProbeAsksForTheAgentsJobsWithinItsOwnTimeOut() {
        slurm.on("squeue -u koala -h", SlurmCommands.Answer.ok(""), failed(1, "down-squeue-u.err"),
                SlurmCommands.Answer.silent());

        manager.probe();
        assertThatThrownBy(manager::probe).isInstanceOf(ManagerUnreachable.class).hasMessage("squeue -u koala -h:"
                + " slurm_load_jobs error: Unable to contact slurm controller (connect failure)");
        assertThatThrownBy(manager::probe).isInstanceOf(ManagerUnreachable.class)
                .hasMessage("squeue -u koala -h did not answer within 5 s")
                .matches(e -> ((ManagerUnreachable) e).timedOut());
        assertThat(manager.probeName()).isEqualTo("squeue -u koala -h");
    }

    @Test
    void aCallInProgressIsTheOldestUntilItReturns() throws Exception {
        List<Optional<ResourceManager.Call>> seen = new ArrayList<>();
        slurm.on("squeue -h -t all -j 9 -o %i|%T|%r", SlurmCommands.Answer.ok("9|RUNNING|None\n"))
                .during(() -> seen.add(manager.oldestCall()));

        manager.state("9");

        assertThat(seen).containsExactly(Optional.of(new ResourceManager.Call("squeue -h -t all -j 9 -o %i|%T|%r",
                Instant.parse("2026-12-06T15:00:00Z"))));
        assertThat(manager.oldestCall()).isEmpty();
    }

    @Test
    void aPilotIsOneCoreOfOneNodeWithItsOwnEnvironment() {
        PilotSpec spec = new PilotSpec("koala-k3x9q0-7-0-0-a1", "/usr/bin/java", List.of("-jar", "/srv/l.jar"),
                Map.of("KOALA_NODE", "7.0.0"), koala.api.site.PilotNeeds.NODE, "-l exclusive=true", "/srv/out/7.log",
                "/srv/out/7.err", "/srv", null, null);

        assertThat(SlurmResourceManager.request(spec).options()).containsExactly("--parsable", "-J",
                "koala-k3x9q0-7-0-0-a1", "-N", "1", "-n", "1", "-c", "1", "-o", "/srv/out/7.log", "-e", "/srv/out/7.err",
                "-D", "/srv", "--export=NONE");
    }

    /** What the pilot claims of its host becomes sbatch's -c, --mem, --gres, --time, -w and -A. */
    @Test
    void aPilotClaimsItsNeedsInSbatchsWords() {
        PilotSpec spec = PilotSpec.of("koala-k3x9q0-8-0-0-a1", "/usr/bin/java", "-jar", "/srv/l.jar")
                .withNeeds(new koala.api.site.PilotNeeds(4, 2176, 1, java.time.Duration.ofMinutes(11), "fs3-n2", "alice"));

        assertThat(SlurmResourceManager.request(spec).options()).containsExactly("--parsable", "-J",
                "koala-k3x9q0-8-0-0-a1", "-N", "1", "-n", "1", "-c", "4", "--mem=2176M", "--gres=gpu:1", "--time=0:11:00",
                "-w", "fs3-n2", "-A", "alice", "-o", "/dev/null", "--export=NONE");
    }

    private void connect() throws ManagerFailure {
        slurm.on("scontrol show config", printed("scontrol-show-config.txt"));
        manager.connect();
    }

    private static PilotSpec exit3() {
        return PilotSpec.of("koala-live-exit3", "/bin/sh", "-c", "exit 3")
                .withOutput("/var/tmp/slt-helper/out/koala-live-exit3.out", null).withEnv(Map.of("KOALA_NODE", "live"));
    }
}
