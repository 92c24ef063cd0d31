package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.NodeTask;
import koala.api.site.PilotNeeds;
import koala.api.site.PilotSpec;
import koala.grid.CellEnvironment;
import koala.grid.DrmaaInstall;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;
import koala.placement.Resources;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import org.junit.jupiter.api.Test;

/**
 * A node's task names the addresses the node can reach: a runner's, forwarded through a remote head node; its
 * pilot claims what the node needs beside the site's own request.
 */
class PilotsTest {
    private static final Path NONE = Path.of("/nonexistent");
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

    /** fs0, whose node is a whole host of 8 cores ({@code -l exclusive=true}), and das4, reached over SSH. */
    private final Pilots configured = new Pilots((site, owner) -> null, Map.of("fs0", site("fs0", "-l exclusive=true",
            Optional.empty()), "das4", site("das4", "", Optional.of(new SshConfig("das4-head", 22, "koala", NONE, NONE, false,
            "/home/koala/.koala", "java", Duration.ofMinutes(10), Optional.empty())))),
            site -> site.equals("das4") ? remote : local, Duration.ofMinutes(5), "k3x9q2", Runnable::run, () -> { });

    private static SiteConfig site(String name, String nativeSpec, Optional<SshConfig> ssh) {
        return new SiteConfig(name, new CellEnvironment(NONE, name, 6444, 6445, NONE), "koala", 0, nativeSpec, 4,
                new DrmaaInstall(NONE, NONE, Optional.empty()), ssh, Optional.empty(), 8);
    }

    private static NodeClaim node(String site, String host) {
        return new NodeClaim("7.0.0", 7, 0, 0, site, NodeState.SUBMITTED, null, host, null, "t0k3n", null, 1);
    }

    /**
     * A node of 4 cores and 32G for 10 minutes: its pilot claims them with the launcher's 128M and a minute's grace,
     * on the host placement chose; the site's own request goes beside that as the admin wrote it.
     */
    @Test
    void aPilotClaimsWhatItsNodeNeedsOnItsHostBesideTheSitesOwnRequest() {
        PilotClaim claim = new PilotClaim(new Resources(4, 32768, 0), Duration.ofMinutes(10));

        PilotSpec spec = configured.spec(node("fs0", "fs0-n3"), "alice", claim, local, "alice");

        assertThat(spec.needs()).isEqualTo(new PilotNeeds(4, 32896, 0, Duration.ofSeconds(660), "fs0-n3", null));
        assertThat(spec.nativeSpec()).isEqualTo("-l exclusive=true");
        assertThat(spec.name()).isEqualTo("koala-k3x9q2-7-0-0-a1");
        assertThat(spec.args()).containsSubsequence("--cores", "4").endsWith("--token-file",
                "/tmp/koala-pilots-alice/koala-k3x9q2-7-0-0-a1.token");
    }

    /**
     * On a remote site every pilot runs as the site's one account: its owner is charged for it; on a local one it
     * runs as its owner. A site not configured here charges nobody else.
     */
    @Test
    void onARemoteSiteThePilotIsChargedToItsOwner() {
        assertThat(configured.needs(node("das4", null), "alice", PilotClaim.NODE))
                .isEqualTo(new PilotNeeds(1, 0, 0, null, null, "alice"));
        assertThat(configured.spec(node("das4", null), "alice", PilotClaim.NODE, remote, "koala").needs().account())
                .isEqualTo("alice");
        assertThat(configured.needs(node("fs0", null), "alice", PilotClaim.NODE)).isEqualTo(PilotNeeds.NODE);
        assertThat(configured.needs(node("fs9", "fs9-n1"), "alice", PilotClaim.NODE))
                .isEqualTo(PilotNeeds.NODE.withHost("fs9-n1"));
    }

    /**
     * A runner's instance ended: its relay is closed on every remote site, also one this process never asked
     * a relay of (made by the scheduler before it, and restored when it connected), and on no local site.
     */
    @Test
    void aRunnerGoneHasItsRelaysClosedOnEveryRemoteSite() {
        koala.grid.CellEnvironment cell = new koala.grid.CellEnvironment(java.nio.file.Path.of("/cm/sge"), "default",
                6444, 6445, java.nio.file.Path.of("/cm/sge/bin"));
        koala.grid.SiteConfig das4 = new koala.grid.SiteConfig("das4", cell, "koala", 0, "", 8,
                koala.grid.DrmaaInstall.debian(), java.util.Optional.of(new koala.grid.SshConfig("fs0.das4.example", 22,
                "koala", java.nio.file.Path.of("/k"), java.nio.file.Path.of("/kh"), true, ".koala", "java",
                Duration.ofMinutes(10), java.util.Optional.empty())));
        koala.grid.SiteConfig fs0 = new koala.grid.SiteConfig("fs0", cell, "koala", 0, "", 8,
                koala.grid.DrmaaInstall.debian(), java.util.Optional.empty());
        List<String> closed = new java.util.ArrayList<>();
        Pilots both = new Pilots((site, owner) -> null, new java.util.TreeMap<>(Map.of("das4", das4, "fs0", fs0)),
                site -> site.equals("das4") ? remote : local, Duration.ofMinutes(5), "k3x9q2", Runnable::run,
                (site, url) -> closed.add(site + " " + url), () -> { });

        both.runnerGone("http://127.0.0.1:7501");

        assertThat(closed).containsExactly("das4 http://127.0.0.1:7501");
    }
}
