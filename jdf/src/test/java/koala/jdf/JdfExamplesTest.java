package koala.jdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The files in {@code jdf-examples/}: every example is valid on the testbed grid (fs0: 16 nodes,
 * fs1 and fs2: 8), with its hosts unknown and with unequal hosts ({@link Jdf#UNEQUAL}), the examples
 * cover every job kind and placement policy, and every file in {@code jdf-examples/invalid/} fails
 * with exactly the errors its comment describes.
 */
class JdfExamplesTest {
    private static final Path EXAMPLES = Path.of("..", "jdf-examples");

    /** kind, placement (or "default"), components, nodes. */
    private static final Map<String, String> SUMMARIES = Map.ofEntries(
            Map.entry("hello.jdf", "NON_FIXED default 1 1"),
            Map.entry("fixed.jdf", "FIXED default 2 12"),
            Map.entry("non-fixed.jdf", "NON_FIXED default 2 12"),
            Map.entry("semi-fixed.jdf", "SEMI_FIXED default 2 18"),
            Map.entry("flexible.jdf", "FLEXIBLE flexible-cluster-minimization 1 24"),
            Map.entry("framework.jdf", "FRAMEWORK default 3 4"),
            Map.entry("constraints.jdf", "NON_FIXED default 2 8"),
            Map.entry("framework-constraints.jdf", "FRAMEWORK default 3 4"),
            Map.entry("worst-fit.jdf", "NON_FIXED worst-fit 3 14"),
            Map.entry("close-to-files.jdf", "NON_FIXED close-to-files 2 6"),
            Map.entry("cluster-minimization.jdf", "NON_FIXED cluster-minimization 3 16"),
            Map.entry("flexible-cluster-minimization.jdf", "FLEXIBLE flexible-cluster-minimization 1 20"),
            Map.entry("resources.jdf", "NON_FIXED default 3 7"));

    private static final String SIZE = "a whole number and a unit K, M, G or T (binary: 1G = 1024M), as in 4G or 512M";

    /** The errors of each file in {@code invalid/}, on the testbed with unequal hosts ({@link Jdf#UNEQUAL}). */
    private static final Map<String, List<String>> INVALID = Map.ofEntries(
            Map.entry("unknown-attribute.jdf", List.of("4:3: unknown attribute 'cont'; did you mean 'count'?")),
            Map.entry("unbalanced-paren.jdf", List.of("5:2: unbalanced '(' opened at 4:2")),
            Map.entry("unknown-cluster.jdf", List.of("3:31: resourceManagerContact: no cluster 'fs9' (clusters: fs0, fs1, fs2)")),
            Map.entry("too-large.jdf", List.of(
                    "4:14: count 40 is more than any cluster has (largest: fs0 with 16 nodes)",
                    "5:14: count 10 is more than cluster fs1 has (8 nodes)")),
            Map.entry("bad-values.jdf", List.of(
                    "2:11: count: 'four' is not a positive whole number",
                    "3:16: executable: 'hostname' is not an absolute path",
                    "4:17: maxWallTime: '1h' is not minutes (a positive whole number) or HH:MM:SS",
                    "5:15: placement: 'best-fit' is not one of: worst-fit, close-to-files, cluster-minimization, "
                            + "flexible-cluster-minimization",
                    "6:18: environment: '2FAST' is not a variable name (letters, digits and '_', not starting "
                            + "with a digit)")),
            Map.entry("flexible-pinned.jdf", List.of(
                    "3:66: resourceManagerContact: a flexible job names no cluster; KOALA splits it over clusters",
                    "4:4: a flexible job has one component (KOALA splits its count over clusters); this is "
                            + "component 2 of 2")),
            Map.entry("framework-no-master.jdf", List.of(
                    "3:4: a framework job needs one master component (role = master)",
                    "4:50: uMax: 50 must be above uMin (60)")),
            Map.entry("unterminated-string.jdf", List.of("3:20: unterminated string: \" without a closing \"")),
            Map.entry("bad-constraints.jdf", List.of(
                    "4:21: constraints: 'anty-affinity' is not a constraint; did you mean 'anti-affinity'? write "
                            + "\"affinity TARGET GROUP\", \"anti-affinity TARGET GROUP\" or \"cardinality MIN..MAX "
                            + "TARGET GROUP\", then hard (the default) or soft",
                    "4:56: constraints: cardinality: '3..1': MAX is below MIN",
                    "4:81: constraints: 'sit' is not a kind of node group (host, site, network, or one the grid "
                            + "declares); did you mean 'site'?",
                    "5:13: tags: 'role=x' is KOALA's to give: every node carries job=, owner=, component= (and "
                            + "role=, instance= in a framework) tags of its own",
                    "7:61: constraints: no component of this job carries c (its tags are those of (tags = ...), "
                            + "component=N and, in a framework, role=R); name another job's nodes with job=ID or "
                            + "owner=NAME")),
            Map.entry("bad-resources.jdf", List.of(
                    "4:43: memory: '4 GB' is not a size: " + SIZE + "; did you mean '4G'?",
                    "5:43: memory: '-1G' is not a positive size: " + SIZE,
                    "5:56: cores: '0' is not a positive whole number",
                    "6:42: cores: '2.5' is not a positive whole number",
                    "6:54: gpus: '-1' is not a whole number of GPUs (0 or more)")),
            Map.entry("node-too-large.jdf", List.of(
                    "6:43: component 1 needs 128G on one host; the largest host has 64G (fs0-n13)",
                    "7:42: component 2 needs 16 cores on one host; the largest host of fs1 has 8 cores (fs1-n01)",
                    "8:41: component 3 needs 1 GPU on one host; no host of fs2 has one",
                    "9:52: count 10: the hosts of any one cluster hold at most 8 nodes of 1 GPU each (fs0)")));

    @Test
    void everyExampleIsValidOnTheTestbed() throws IOException {
        List<Path> files = jdfs(EXAMPLES);
        assertThat(files).hasSizeGreaterThanOrEqualTo(SUMMARIES.size());
        for (Path file : files) {
            JobDescription job = JdfParser.parse(file.toString(), Files.readString(file), Jdf.TESTBED);
            assertThat(job.source()).isEqualTo(file.toString());
            assertThat(JdfParser.parse(file.toString(), Files.readString(file), Jdf.UNEQUAL))
                    .as(file + " with unequal hosts").isEqualTo(job);
        }
    }

    @Test
    void theResourcesExampleAsksEachComponentsOwn() throws IOException {
        Path file = EXAMPLES.resolve("resources.jdf");
        JobDescription job = JdfParser.parse(file.toString(), Files.readString(file), Jdf.UNEQUAL);
        assertThat(job.components()).extracting(ComponentSpec::count, ComponentSpec::resources).containsExactly(
                tuple(1, new NodeResources(1, 2048, 0)),
                tuple(4, new NodeResources(8, 6144, 0)),
                tuple(2, new NodeResources(4, 16384, 1)));
    }

    @Test
    void theExamplesShowEveryJobKindAndEveryPlacementPolicy() throws IOException {
        for (Map.Entry<String, String> expected : SUMMARIES.entrySet()) {
            Path file = EXAMPLES.resolve(expected.getKey());
            JobDescription job = JdfParser.parse(file.toString(), Files.readString(file), Jdf.TESTBED);
            String summary = job.kind() + " " + (job.placement() == null ? "default" : job.placement()) + " "
                    + job.components().size() + " " + job.totalNodes();
            assertThat(summary).as(expected.getKey()).isEqualTo(expected.getValue());
        }
        assertThat(SUMMARIES.values()).allSatisfy(s -> assertThat(s).isNotEmpty());
        for (JobKind kind : JobKind.values()) {
            assertThat(SUMMARIES.values()).as("an example of " + kind).anyMatch(s -> s.startsWith(kind + " "));
        }
        for (String policy : JdfParser.PLACEMENT_POLICIES) {
            assertThat(SUMMARIES).as("an example named after " + policy).containsKey(policy + ".jdf");
        }
    }

    @Test
    void everyInvalidExampleFailsWithExactlyItsErrors() throws IOException {
        List<Path> files = jdfs(EXAMPLES.resolve("invalid"));
        assertThat(files).extracting(f -> f.getFileName().toString())
                .containsExactlyInAnyOrderElementsOf(INVALID.keySet());
        for (Path file : files) {
            String name = file.toString();
            List<String> expected = INVALID.get(file.getFileName().toString()).stream().map(e -> name + ":" + e).toList();
            assertThatThrownBy(() -> JdfParser.parse(name, Files.readString(file), Jdf.UNEQUAL))
                    .as(name).isInstanceOfSatisfying(JdfException.class, e -> assertThat(e.errors())
                            .extracting(JdfError::toString).containsExactlyElementsOf(expected));
        }
    }

    private static List<Path> jdfs(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".jdf")).sorted().toList();
        }
    }
}
