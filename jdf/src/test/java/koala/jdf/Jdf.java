package koala.jdf;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** Test helpers: the testbed's grid, and parsing that returns the errors as printed. */
final class Jdf {
    /** The local testbed: fs0 with 16 nodes, fs1 and fs2 with 8; fs0 and fs1 on the grid's network, fs2 on its own. */
    static final ClusterCatalog TESTBED = new ClusterCatalog(Map.of("fs0", 16, "fs1", 8, "fs2", 8), null,
            Map.of("fs0", "grid", "fs1", "grid", "fs2", "fs2"));

    /**
     * The testbed's clusters with unequal hosts: fs0 with 12 hosts of 4 cores and 8G (fs0-n01..n12)
     * and 4 of 16 cores, 64G and 2 GPUs (fs0-n13..n16); fs1 with 8 hosts of 8 cores and 16G; fs2
     * with 8 of 8 cores and 32G.
     */
    static final ClusterCatalog UNEQUAL = Jdf.TESTBED.withHosts(Stream.of(
            hosts("fs0", 1, 12, 4, 8, 0), hosts("fs0", 13, 16, 16, 64, 2),
            hosts("fs1", 1, 8, 8, 16, 0), hosts("fs2", 1, 8, 8, 32, 0)).flatMap(List::stream).toList());

    private static List<HostCapacity> hosts(String site, int from, int to, int cores, int gib, int gpus) {
        return IntStream.rangeClosed(from, to).mapToObj(n -> new HostCapacity(site, String.format("%s-n%02d", site, n),
                cores, gib * 1024L, gpus)).toList();
    }

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
