package koala.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import koala.api.site.MemoryUse;
import koala.api.site.PilotNeeds;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.api.site.PilotStatus;
import koala.common.failure.Refused;
import koala.common.failure.Unavailable;
import koala.common.json.Json;
import koala.grid.CellEnvironment;
import koala.grid.DrmaaInstall;
import koala.grid.SiteConfig;
import koala.resourcemanager.FakeResourceManager;
import koala.resourcemanager.JobEnd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The site agent over a resource manager in memory: the pilots' lives as the manager tells them,
 * with the site's native specification, KOALA's own kills, a manager that goes away and comes back,
 * and a pilot of the earlier connection reattached through accounting. Probes run on a manual
 * timer (every 2 s); the reaper on a thread of its own, as in the agent.
 */
class SiteAgentTest {
    private static final SiteConfig SITE = new SiteConfig("fs0", new CellEnvironment(Path.of("/var/lib/gridengine"),
            "fs0", 6444, 6445, Path.of("/bin")), "koala", 0, "-l exclusive=true", 2, DrmaaInstall.debian(),
            Optional.empty());
    private static final Duration ROUND = Duration.ofSeconds(2);

    private final ManualTimer timer = new ManualTimer(Instant.parse("2026-01-01T10:00:00Z"));
    private final ExecutorService reaper = Executors.newSingleThreadExecutor();
    private final FakeResourceManager manager = new FakeResourceManager(2);
    private SiteAgent agent;

    @BeforeEach
    void start() {
        agent = new SiteAgent(SITE, manager, timer, new SiteAgent.Threads(timer, timer, timer, reaper),
                AgentMain.TIMING, () -> { });
        agent.start();
        timer.advance(ROUND);
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    @Test
    void aPilotIsSubmittedWithTheSitesNativeSpecAndEndsAsTheManagerSays() throws Exception {
        assertThat(agent.health().status()).isEqualTo("UP");
        assertThat(agent.health().drmSystem()).isEqualTo("Fake 1.0");

        PilotStatus queued = agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));
        manager.start("1");
        PilotStatus running = agent.status("1");
        manager.end("1", new JobEnd.Exited(3));
        PilotStatus done = agent.awaitChange("1", PilotState.RUNNING, Duration.ofSeconds(10));

        assertThat(queued.id()).isEqualTo("1");
        assertThat(queued.state()).isEqualTo(PilotState.QUEUED);
        assertThat(manager.submitted()).isEmpty(); // it ended, and the manager forgot it
        assertThat(running.state()).isEqualTo(PilotState.RUNNING);
        assertThat(done.state()).isEqualTo(PilotState.DONE);
        assertThat(done.exitStatus()).isEqualTo(3);
    }

    @Test
    void aPilotWithoutANativeSpecGetsTheSitesOne() {
        agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));

        assertThat(manager.submitted().get("1").nativeSpec()).isEqualTo("-l exclusive=true");
    }

    /**
     * What a pilot claims reaches the manager as the scheduler sent it, through the JSON of the agent's API,
     * beside the site's own request: the manager says it in its own words.
     */
    @Test
    void aPilotsNeedsReachTheManagerAsTheSchedulerSentThem() throws Exception {
        PilotNeeds needs = new PilotNeeds(4, 32896, 1, Duration.ofSeconds(660), "n1", "alice");
        String body = Json.write(PilotSpec.of("koala-x-1", "/bin/true").withNeeds(needs));

        agent.submit(Json.mapper().readValue(body, PilotSpec.class));

        assertThat(manager.submitted().get("1").needs()).isEqualTo(needs);
        assertThat(manager.submitted().get("1").nativeSpec()).isEqualTo("-l exclusive=true");
    }

    @Test
    void aPilotKoalaKillsSaysSoRatherThanTheManagersWords() throws Exception {
        agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));

        agent.kill("1");
        PilotStatus killed = agent.awaitChange("1", PilotState.QUEUED, Duration.ofSeconds(10));

        assertThat(killed.state()).isEqualTo(PilotState.FAILED);
        assertThat(killed.reason()).isEqualTo("killed by KOALA");
    }

    @Test
    void aPilotDeletedByHandGivesTheManagersWords() throws Exception {
        agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));

        manager.end("1", new JobEnd.Deleted("deleted in Fake before it finished"));
        PilotStatus gone = agent.awaitChange("1", PilotState.QUEUED, Duration.ofSeconds(10));

        assertThat(gone.reason()).isEqualTo("deleted in Fake before it finished");
    }

    @Test
    void aPilotTheManagerStoppedForItsMemorySaysSoAsData() throws Exception {
        agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));
        manager.start("1");

        // SGE's figures for -pe smp 2 -l h_vmem=512M killed at a maxvmem of 1.082GB (qacct-fs0-h_vmem-exceeded.txt)
        manager.end("1", new JobEnd.Signalled("SIGKILL"), new MemoryUse(1024L, 1108L, true));
        PilotStatus ended = agent.awaitChange("1", PilotState.RUNNING, Duration.ofSeconds(10));

        assertThat(ended.state()).isEqualTo(PilotState.FAILED);
        assertThat(ended.exceededMemory()).isTrue();
        assertThat(ended.memory()).isEqualTo(new MemoryUse(1024L, 1108L, true));
        assertThat(ended.reason()).isEqualTo("exceeded its 1G memory (max 1.08G): stopped by Fake");
    }

    @Test
    void aPilotWithinItsMemoryEndsAsBeforeWithItsFigures() throws Exception {
        agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));

        manager.end("1", new JobEnd.Exited(1), new MemoryUse(1024L, 779L, false));
        PilotStatus ended = agent.awaitChange("1", PilotState.QUEUED, Duration.ofSeconds(10));

        assertThat(ended.state()).isEqualTo(PilotState.DONE);
        assertThat(ended.exitStatus()).isEqualTo(1);
        assertThat(ended.exceededMemory()).isFalse();
        assertThat(ended.memory().maxMib()).isEqualTo(779L);
    }

    @Test
    void aPilotThatExceededItsMemoryWhileTheManagerWasAwayIsReportedFromAccounting() {
        agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));
        manager.start("1");
        manager.goAway("unable to contact qmaster");
        timer.advance(ROUND);
        manager.end("1", new JobEnd.Failed("SGE reports failure: 37  : qmaster enforced h_rt, h_cpu, or h_vmem limit"),
                new MemoryUse(1024L, 1108L, true));

        manager.comeBack();
        timer.advance(ROUND);
        PilotStatus seen = agent.status("1");

        assertThat(seen.state()).isEqualTo(PilotState.FAILED);
        assertThat(seen.reason()).isEqualTo("exceeded its 1G memory (max 1.08G): stopped by Fake");
    }

    @Test
    void whileTheManagerIsAwayTheAgentReadsDownAndRefusesWithUnavailable() {
        manager.goAway("unable to contact qmaster");
        timer.advance(ROUND);

        assertThat(agent.health().status()).isEqualTo("DOWN");
        assertThat(agent.health().reason()).isEqualTo("unable to contact qmaster");
        assertThatThrownBy(() -> agent.submit(PilotSpec.of("koala-x-1", "/bin/true")))
                .isInstanceOf(Unavailable.class)
                .hasMessage("cell fs0 of site fs0 is unreachable: unable to contact qmaster");
    }

    @Test
    void aRefusalNamesTheManager() {
        manager.refuseSubmissions("no suitable queue");

        assertThatThrownBy(() -> agent.submit(PilotSpec.of("koala-x-1", "/bin/true")))
                .isInstanceOf(Refused.class)
                .hasMessage("submit refused by Fake: no suitable queue");
    }

    @Test
    void aPilotThatEndedWhileTheManagerWasAwayIsReattachedThroughAccounting() {
        agent.submit(PilotSpec.of("koala-x-1", "/bin/true"));
        manager.start("1");
        manager.goAway("unable to contact qmaster");
        timer.advance(ROUND);
        manager.end("1", new JobEnd.Exited(0)); // seen by no connection: only accounting has it

        manager.comeBack();
        timer.advance(ROUND);
        PilotStatus seen = agent.status("1");

        assertThat(manager.connection()).isEqualTo(2);
        assertThat(seen.state()).isEqualTo(PilotState.DONE);
        assertThat(seen.exitStatus()).isZero();
    }
}
