package koala.jdf;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

/** Test helpers: the testbed's grid, and parsing that returns the errors as printed. */
final class Jdf {
    /** The local testbed: fs0 with 16 nodes, fs1 and fs2 with 8; fs0 and fs1 on the grid's network, fs2 on its own. */
    static final ClusterCatalog TESTBED = new ClusterCatalog(Map.of("fs0", 16, "fs1", 8, "fs2", 8), null,
            Map.of("fs0", "grid", "fs1", "grid", "fs2", "fs2"));

    /** The provisioning policies' names as the runner and the CLI pass them (PolicyKind's, in provisioning). */
    static final List<String> POLICIES = List.of("static", "ondemand", "proactive", "reserve", "pool");

    private Jdf() {
    }

    static JobDescription parse(String text) {
        return JdfParser.parse("job.jdf", text, TESTBED, POLICIES);
    }

    /** The errors, each as {@code job.jdf:line:column: message}; fails if the text parses. */
    static List<String> errors(String text) {
        return errors(text, TESTBED);
    }

    static List<String> errors(String text, ClusterCatalog clusters) {
        JdfException[] caught = new JdfException[1];
        assertThatThrownBy(() -> JdfParser.parse("job.jdf", text, clusters, POLICIES))
                .isInstanceOfSatisfying(JdfException.class, e -> caught[0] = e);
        return caught[0].errors().stream().map(JdfError::toString).toList();
    }
}
