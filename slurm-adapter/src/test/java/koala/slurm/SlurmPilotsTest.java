package koala.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.util.List;
import java.util.Map;
import koala.api.site.PilotSpec;
import koala.common.failure.InvalidField;
import org.junit.jupiter.api.Test;

/** What Slurm would not take, refused before {@code sbatch} sees it, each naming its field. */
class SlurmPilotsTest {
    private static final PilotSpec GOOD = new PilotSpec("koala-k3x9q0-7-0-0-a1", "/usr/bin/java", List.of("-jar", "l.jar"),
            Map.of("KOALA_NODE", "7.0.0"), koala.api.site.PilotNeeds.NODE, null, "/srv/out/7.log", null, "/srv", null, null);

    @Test
    void aPilotAsKoalaMakesThemPasses() {
        assertThatNoException().isThrownBy(() -> SlurmPilots.validate(GOOD));
        assertThatNoException().isThrownBy(() -> SlurmPilots.validate(PilotSpec.of("7x", "/bin/true")));
    }

    @Test
    void eachRuleNamesItsField() {
        assertThat(refusal(PilotSpec.of("koala job", "/bin/true"))).isEqualTo(
                "name: 'koala job' is not a valid Slurm job name (1 to 200 letters, digits, _ . + -)");
        assertThat(refusal(PilotSpec.of("koala-x", "java"))).isEqualTo("command: 'java' must be an absolute path");
        assertThat(refusal(GOOD.withEnv(Map.of("A-B", "1")))).isEqualTo("env: 'A-B' is not a variable name");
        assertThat(refusal(GOOD.withOutput("out.log", null))).isEqualTo("stdout: 'out.log' must be an absolute path");
        assertThat(refusal(GOOD.withOutput("/srv/out/%j.log", null)))
                .isEqualTo("stdout: '/srv/out/%j.log': sbatch reads % and \\ in a file name as patterns (%j, %x, ...)");
        assertThat(refusal(GOOD.withOutput("/srv/7.log", "/srv/a\\b.err"))).startsWith("stderr: ");
        assertThat(refusal(new PilotSpec("koala-x", "/bin/true", List.of(), Map.of(), koala.api.site.PilotNeeds.NODE, null, null, null,
                "srv", null, null))).isEqualTo("workingDirectory: 'srv' must be an absolute path");
        assertThat(refusal(GOOD.withSecret("abc", null))).isEqualTo(
                "secretFile: a secret and the file to hand it over in go together");
        assertThat(refusal(GOOD.withSecret("a b", "/srv/s"))).isEqualTo(
                "secret: not a token (1 to 256 letters, digits, _ or -)");
    }

    private static String refusal(PilotSpec spec) {
        return assertThatThrownBy(() -> SlurmPilots.validate(spec)).isInstanceOf(InvalidField.class).actual().getMessage();
    }
}
