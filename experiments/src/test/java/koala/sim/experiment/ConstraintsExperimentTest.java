package koala.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import koala.sim.ConstraintStream;
import koala.sim.ConstraintStream.Grid;
import koala.sim.ConstraintStream.Mix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The constraints experiment on a small grid: the same stream for every policy, no hard break by the placer. */
class ConstraintsExperimentTest {
    private static final ConstraintsExperiment.Settings SMALL = new ConstraintsExperiment.Settings(
            new Grid(6, 10, 4, 5, 3), 40, 400, Mix.DEFAULT, 3, 1);

    @Test
    void theStreamIsAFunctionOfItsSeed() {
        assertThat(ConstraintStream.generate(40, 400, Mix.DEFAULT, 3)).isEqualTo(ConstraintStream.generate(40, 400,
                Mix.DEFAULT, 3));
        assertThat(ConstraintStream.generate(40, 400, Mix.DEFAULT, 3)).isNotEqualTo(ConstraintStream.generate(40, 400,
                Mix.DEFAULT, 4));
    }

    @Test
    void theConstrainedPlacerBreaksNoHardConstraintWhereTheBlindOnesDo(@TempDir Path dir) throws Exception {
        ConstraintsExperiment.Result r = ConstraintsExperiment.run(SMALL);
        ConstraintsExperiment.Figures constrained = r.figures().get(0);
        assertThat(constrained.policy()).isEqualTo(ConstraintsExperiment.Policy.CONSTRAINED);
        assertThat(constrained.hardBroken()).isZero();
        assertThat(constrained.auditHard()).isZero();
        for (ConstraintsExperiment.Figures blind : r.figures().subList(1, 3)) {
            assertThat(blind.hardBroken()).isPositive();
            assertThat(blind.softBroken()).isGreaterThan(constrained.softBroken());
            // blind, nothing waits for a constraint; the same requests are made of every policy
            assertThat(blind.deploysHard() + blind.growsHard()).isZero();
            assertThat(blind.deploys()).isEqualTo(constrained.deploys());
        }
        // the decision the constrained placer made for the same stream is the same every time
        assertThat(ConstraintsExperiment.run(SMALL).figures().get(0).containers()).isEqualTo(constrained.containers());

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        ConstraintsExperiment.print(r, new PrintStream(text, true, "UTF-8"));
        assertThat(text.toString("UTF-8")).contains("hard constraints broken at placement", "worst-fit (blind)");
        Path csv = ConstraintsExperiment.write(r, dir);
        assertThat(Files.readAllLines(csv)).hasSize(4).first().asString().startsWith("policy,containers,");
    }
}
