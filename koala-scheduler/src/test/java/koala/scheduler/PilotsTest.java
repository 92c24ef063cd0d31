package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.NodeTask;
import org.junit.jupiter.api.Test;

/** A node's task names the addresses the node can reach: a runner's, forwarded through a remote head node. */
class PilotsTest {
    private final Pilots.Launcher local = new Pilots.Launcher("/usr/bin/java", List.of("/opt/koala/a.jar"),
            List.of("/opt/koala/f.jar", "/opt/koala/a.jar"), List.of(),
            "http://127.0.0.1:7400", "/tmp/koala-pilots", url -> url);
    private final Pilots.Launcher remote = new Pilots.Launcher("/usr/bin/java", List.of("/home/koala/.koala/lib/a.jar"),
            List.of(), List.of(), "http://127.0.0.1:35867", "/home/koala/.koala/pilots",
            url -> url.replace("127.0.0.1:7501", "127.0.0.1:40001"));
    private final Pilots pilots = new Pilots((site, owner) -> null, Map.of(), site -> site.equals("das4") ? remote : local,
            Duration.ofMinutes(5), "k3x9q2", Runnable::run, () -> { });

    private static NodeTask task(Map<String, String> env) {
        return new NodeTask("RUN", "/bin/sleep", List.of("1"), env, null, null, null, null);
    }

    @Test
    void aRunnersAddressBecomesTheForwardedOneOnARemoteSiteAndStaysOnALocalOne() {
        NodeTask entity = task(Map.of("KOALA_RUNNER_URL", "http://127.0.0.1:7501", "KOALA_ROLE", "worker"));

        assertThat(pilots.forNode("das4", entity).environment()).containsEntry("KOALA_RUNNER_URL", "http://127.0.0.1:40001")
                .containsEntry("KOALA_ROLE", "worker");
        assertThat(pilots.forNode("fs0", entity)).isEqualTo(entity);
    }

    @Test
    void aPilotRunsTheLauncherOnItsJarsAndHandsJobsThoseOfKoalasPrograms() {
        assertThat(Pilots.launcherJvm(local)).containsSubsequence(
                "-Dkoala.programs.classpath=/opt/koala/f.jar:/opt/koala/a.jar", "-cp", "/opt/koala/a.jar",
                "koala.node.NodeLauncher");
        assertThat(Pilots.launcherJvm(remote)).noneMatch(a -> a.startsWith("-Dkoala.programs"))
                .containsSubsequence("-cp", "/home/koala/.koala/lib/a.jar", "koala.node.NodeLauncher");
    }

    @Test
    void aTaskWithoutARunnerIsLeftAsItIs() {
        NodeTask rigid = task(Map.of("KOALA_JOB_ID", "7"));
        assertThat(pilots.forNode("das4", rigid)).isSameAs(rigid);
        NodeTask waiting = NodeTask.waiting();
        assertThat(pilots.forNode("das4", waiting)).isSameAs(waiting);
    }

    @Test
    void onARemoteSiteTheOwnerGoesIntoSgesAccountString() {
        assertThat(Pilots.accountString("-l exclusive=true", "alice")).isEqualTo("-l exclusive=true -A alice");
        assertThat(Pilots.accountString("", "alice")).isEqualTo("-A alice");
        assertThat(Pilots.accountString(null, "bob")).isEqualTo("-A bob");
    }

    @Test
    void aPilotWhoseHostWasChosenAsksSgeForThatHost() {
        assertThat(Pilots.pinned("-l exclusive=true", "fs0-n3")).isEqualTo("-l exclusive=true -l h=fs0-n3");
        assertThat(Pilots.pinned("", "fs0-n3")).isEqualTo("-l h=fs0-n3");
        assertThat(Pilots.pinned(null, "fs0-n3")).isEqualTo("-l h=fs0-n3");
        assertThat(Pilots.pinned("-l exclusive=true", null)).isEqualTo("-l exclusive=true");
    }
}
