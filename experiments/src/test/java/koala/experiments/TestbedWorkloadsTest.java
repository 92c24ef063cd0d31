package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import koala.provisioning.PolicyKind;
import koala.sim.Workload;
import org.junit.jupiter.api.Test;

/**
 * What {@code experiment testbed} and {@code experiment testbed-suspension} share from {@link TestbedSetup}:
 * the workload compressed to the testbed's pace, and the policies named by {@code --policies}.
 */
class TestbedWorkloadsTest {
    private static final TestbedSetup SETUP = new TestbedSetup(10, 20, 20, 2, 0.1);

    /**
     * At scale 10, 10 minutes of arrivals are 100 minutes of the paper's W_rl compressed; the run is then
     * extended by an RL (300 s / 10 = 30 s) and two CPU samples (2 × 40 s / 10 = 8 s): 10 min 38 s. The jobs
     * are those the command generated before it shared {@link TestbedSetup#compressed}, to the letter (the
     * hash of their text).
     */
    @Test
    void theTestbedExperimentsWorkloadIsTenMinutesOfArrivalsAndAnRlAndTwoSamples() {
        TestbedExperiment e = new TestbedExperiment();
        e.minutes = 10;
        e.seed = 1;
        e.scale = 10;

        Workload w = e.workload(SETUP);

        assertThat(w.length()).isEqualTo(Duration.ofMinutes(10).plusSeconds(38));
        assertThat(w.jobs()).hasSize(180);
        assertThat(w.applications()).isEqualTo(454);
        assertThat(w.jobs().toString().hashCode()).isEqualTo(-224980310);
        assertThat(w.jobs().get(w.jobs().size() - 1).submittedAt()).isBefore(Workload.START.plus(Duration.ofMinutes(10)));
    }

    /** The same for the suspension experiment's 4 minutes of RLs with word counts mixed in: 4 min 38 s. */
    @Test
    void theSuspensionExperimentsWorkloadIsFourMinutesOfArrivalsAndAnRlAndTwoSamples() {
        TestbedSuspension s = new TestbedSuspension();
        s.minutes = 4;
        s.seed = 1;
        s.scale = 10;
        s.swcEvery = 300;
        s.swcDuration = 600;

        Workload w = s.workload(SETUP);

        assertThat(w.length()).isEqualTo(Duration.ofMinutes(4).plusSeconds(38));
        assertThat(w.jobs()).hasSize(88);
        assertThat(w.applications()).isEqualTo(253);
        assertThat(w.jobs().toString().hashCode()).isEqualTo(1473279892);
    }

    @Test
    void policiesAreTakenInTheOrderGivenAndAnUnknownOneIsRefusedNamingThemAll() {
        assertThat(TestbedSetup.policies(List.of("pool", " static"))).containsExactly(PolicyKind.POOL,
                PolicyKind.STATIC);
        assertThatThrownBy(() -> TestbedSetup.policies(List.of("static", "greedy")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--policies: greedy is not one of " + PolicyKind.names());
    }
}
