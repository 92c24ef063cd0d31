package koala.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.site.PilotNeeds;
import koala.api.site.PilotSpec;
import org.junit.jupiter.api.Test;

/**
 * A pilot of 2 cores, 1152 MiB and a GPU, for 10 minutes and the launcher's minute of grace, on n1 for alice's
 * account. These options and this script, given to Slurm 22.05's {@code sbatch} on the cluster of
 * {@link SlurmJsonTest}, ran on n1 with {@code CUDA_VISIBLE_DEVICES=0}, {@code SLURM_CPUS_PER_TASK=2},
 * {@code SLURM_MEM_PER_NODE=1152}, the exported variables and the quoted argument as given.
 */
class SbatchRequestTest {
    private final SbatchRequest pilot = new SbatchRequest("koala-k3x9q0-7-0-0-a1", "/usr/bin/java",
            List.of("-cp", "/srv/runtime/a b.jar", "it's"), Map.of("KOALA_NODE", "7.0.0", "LANG", "C.UTF-8"),
            "/srv/pilots/koala-k3x9q0-7-0-0-a1.log", null, "/tmp", 2, 1152, 1, Duration.ofSeconds(660), "n1", "alice");

    @Test
    void itsOptionsClaimTheNodesCoresMemoryGpusAndTime() {
        assertThat(pilot.options()).containsExactly("--parsable", "-J", "koala-k3x9q0-7-0-0-a1", "-N", "1", "-n", "1",
                "-c", "2", "--mem=1152M", "--gres=gpu:1", "--time=0:11:00", "-w", "n1", "-A", "alice",
                "-o", "/srv/pilots/koala-k3x9q0-7-0-0-a1.log", "-D", "/tmp", "--export=NONE");
    }

    /** The same pilot as the scheduler sends it to a site's agent: what it claims, in no manager's words. */
    @Test
    void aPilotSpecClaimsItsNeedsInSbatchsOptions() {
        PilotSpec spec = new PilotSpec("koala-k3x9q0-7-0-0-a1", "/usr/bin/java", List.of("-cp", "/srv/runtime/a b.jar",
                "it's"), Map.of("KOALA_NODE", "7.0.0", "LANG", "C.UTF-8"),
                new PilotNeeds(2, 1152, 1, Duration.ofSeconds(660), "n1", "alice"), "-l exclusive=true",
                "/srv/pilots/koala-k3x9q0-7-0-0-a1.log", null, "/tmp", "t0k3n", "/srv/pilots/koala-k3x9q0-7-0-0-a1.token");

        assertThat(SbatchRequest.of(spec)).isEqualTo(pilot);
        assertThat(SbatchRequest.of(PilotSpec.of("koala-x-1-0-0-a1", "/bin/true")).options()).containsExactly("--parsable",
                "-J", "koala-x-1-0-0-a1", "-N", "1", "-n", "1", "-c", "1", "-o", "/dev/null", "--export=NONE");
    }

    @Test
    void itsScriptExportsTheEnvironmentAndRunsTheCommandQuoted() {
        assertThat(pilot.script()).isEqualTo("""
                #!/bin/sh
                export KOALA_NODE='7.0.0'
                export LANG='C.UTF-8'
                exec '/usr/bin/java' '-cp' '/srv/runtime/a b.jar' 'it'\\''s'
                """);
    }

    @Test
    void aNodeThatAsksNothingMoreClaimsACoreAndLeavesTheRestToThePartition() {
        SbatchRequest bare = new SbatchRequest("koala-x-1-0-0-a1", "/bin/true", List.of(), Map.of(), null, null, null, 1, 0,
                0, null, null, null);
        assertThat(bare.options()).containsExactly("--parsable", "-J", "koala-x-1-0-0-a1", "-N", "1", "-n", "1", "-c", "1",
                "-o", "/dev/null", "--export=NONE");
        assertThat(SbatchRequest.time(Duration.ofMillis(90_500))).isEqualTo("0:01:31");
        assertThat(SbatchRequest.time(Duration.ofHours(26))).isEqualTo("26:00:00");
        assertThatThrownBy(() -> new SbatchRequest("koala-x", "/bin/true", List.of(), Map.of("A-B", "1"), null, null, null,
                1, 0, 0, null, null, null).script()).hasMessage("not a variable name: 'A-B'");
    }
}
