package koala.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PlacementPoliciesTest {

    @Test
    void knowsTheFourPoliciesByShortName() {
        assertThat(PlacementPolicies.names()).containsExactly("worst-fit", "close-to-files",
                "cluster-minimization", "flexible-cluster-minimization");
        for (String name : PlacementPolicies.names()) {
            assertThat(PlacementPolicies.byName(name).name()).isEqualTo(name);
        }
        assertThat(PlacementPolicies.byName("worst-fit")).isInstanceOf(WorstFit.class);
        assertThat(PlacementPolicies.byName("close-to-files")).isInstanceOf(CloseToFiles.class);
        assertThat(PlacementPolicies.byName("cluster-minimization")).isInstanceOf(ClusterMinimization.class);
        assertThat(PlacementPolicies.byName("flexible-cluster-minimization"))
                .isInstanceOf(FlexibleClusterMinimization.class);
    }

    @Test
    void namesAreCaseInsensitive() {
        assertThat(PlacementPolicies.byName("Worst-Fit")).isInstanceOf(WorstFit.class);
        assertThat(PlacementPolicies.byName(" CLOSE-TO-FILES ")).isInstanceOf(CloseToFiles.class);
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        assertThatThrownBy(() -> PlacementPolicies.byName("best-fit"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown placement policy 'best-fit'; known: worst-fit, close-to-files, "
                        + "cluster-minimization, flexible-cluster-minimization");
        assertThatThrownBy(() -> PlacementPolicies.byName(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void defaultsAreWorstFitAndForFlexibleJobsFlexibleClusterMinimization() {
        assertThat(PlacementPolicies.byName(PlacementPolicies.DEFAULT)).isInstanceOf(WorstFit.class);
        assertThat(PlacementPolicies.byName(PlacementPolicies.DEFAULT_FLEXIBLE))
                .isInstanceOf(FlexibleClusterMinimization.class);
    }
}
