package koala.jdf;

import static koala.jdf.Jdf.errors;
import static koala.jdf.Jdf.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
import koala.common.json.Json;
import org.junit.jupiter.api.Test;

/**
 * What one node of a component needs on its host ({@code cores}, {@code memory}, {@code gpus}): the
 * values read, the errors, and the checks against the grid's hosts when they are known.
 */
class JdfResourcesTest {
    private static final ClusterCatalog HOSTS = Jdf.UNEQUAL;

    private static String job(String relations) {
        return "&(executable = /bin/true)" + relations;
    }

    private static NodeResources resources(String relations) {
        return parse(job(relations)).components().get(0).resources();
    }

    @Test
    void aNodeNeedsOneCoreNoGpuAndNoMemoryUnlessTheJdfSaysSo() {
        assertThat(resources("")).isEqualTo(new NodeResources(1, 0, 0)).isEqualTo(NodeResources.DEFAULT);
        assertThat(resources("").memoryGiven()).isFalse();
        assertThat(resources("(cores = 8)(memory = 4G)(gpus = 1)")).isEqualTo(new NodeResources(8, 4096, 1));
        assertThat(resources("(gpus = 0)")).isEqualTo(NodeResources.DEFAULT);
    }

    @Test
    void memoryIsABinarySizeKeptInMiB() {
        assertThat(resources("(memory = 1536M)").memoryMiB()).isEqualTo(1536);
        assertThat(resources("(memory = 2G)").memoryMiB()).isEqualTo(2048);
        assertThat(resources("(memory = 1T)").memoryMiB()).isEqualTo(1_048_576);
        assertThat(resources("(memory = 2048K)").memoryMiB()).as("2048K is 2M").isEqualTo(2);
        assertThat(resources("(memory = 1500K)").memoryMiB()).as("rounded up to whole MiB").isEqualTo(2);
        assertThat(resources("(memory = 1K)").memoryMiB()).isEqualTo(1);
        assertThat(resources("(memory = \"4G\")").memoryMiB()).as("quoted").isEqualTo(4096);
        assertThat(resources("(memory = 999999999T)").memoryMiB()).as("the largest taken")
                .isEqualTo(999_999_999L * 1024 * 1024);
    }

    @Test
    void eachComponentAndEachFrameworkRoleHasItsOwn() {
        JobDescription job = parse("""
                +( &(jobType = framework)(role = master)(memory = 2G) )
                 ( &(role = orchestrator)(cores = 2) )
                 ( &(role = worker)(count = 4)(cores = 4)(memory = 6G)(gpus = 1) )
                """);

        assertThat(job.components()).extracting(ComponentSpec::resources).containsExactly(
                new NodeResources(1, 2048, 0),
                new NodeResources(2, 0, 0),
                new NodeResources(4, 6144, 1));
    }

    @Test
    void namesAreMatchedWithoutCase() {
        assertThat(resources("(Cores = 2)(MEMORY = 1G)(GPUs = 3)")).isEqualTo(new NodeResources(2, 1024, 3));
    }

    @Test
    void theOldConstructorsKeepTheDefaults() {
        ComponentSpec c = new ComponentSpec(0, 1, "/bin/true", List.of(), null, Map.of(), null, null, null, null,
                List.of(), null, null);
        assertThat(c.resources()).isEqualTo(NodeResources.DEFAULT);
        assertThat(new ClusterCatalog(Map.of("fs0", 4)).hosts()).isEmpty();
    }

    @Test
    void aSizeIsShownInTheLargestUnitThatShowsItWhole() {
        assertThat(NodeResources.size(65536)).isEqualTo("64G");
        assertThat(NodeResources.size(1536)).isEqualTo("1536M");
        assertThat(NodeResources.size(1_048_576)).isEqualTo("1T");
        assertThat(NodeResources.size(1)).isEqualTo("1M");
    }

    @Test
    void memoryNeedsAWholeNumberAndAnUpperCaseBinaryUnit() {
        String form = "a whole number and a unit K, M, G or T (binary: 1G = 1024M), as in 4G or 512M";
        assertThat(errors(job("(memory = \"4 GB\")"))).containsExactly(
                "job.jdf:1:36: memory: '4 GB' is not a size: " + form + "; did you mean '4G'?");
        assertThat(errors(job("(memory = 4GB)(count = 1)"))).containsExactly(
                "job.jdf:1:36: memory: '4GB' is not a size: " + form + "; did you mean '4G'?");
        assertThat(errors(job("(memory = 4g)"))).containsExactly(
                "job.jdf:1:36: memory: '4g' is not a size: " + form + "; did you mean '4G'?");
        assertThat(errors(job("(memory = 1.5G)"))).containsExactly(
                "job.jdf:1:36: memory: '1.5G' is not a size: " + form + "; did you mean '1536M'?");
        assertThat(errors(job("(memory = 0.1M)"))).as("no whole number of MiB to suggest").containsExactly(
                "job.jdf:1:36: memory: '0.1M' is not a size: " + form);
        assertThat(errors(job("(memory = 4096)"))).containsExactly(
                "job.jdf:1:36: memory: '4096' is not a size: " + form);
        assertThat(errors(job("(memory = 4X)"))).containsExactly(
                "job.jdf:1:36: memory: '4X' is not a size: " + form);
        assertThat(errors(job("(memory = lots)"))).containsExactly(
                "job.jdf:1:36: memory: 'lots' is not a size: " + form);
    }

    @Test
    void memoryIsPositiveAndNotTooLarge() {
        String form = "a whole number and a unit K, M, G or T (binary: 1G = 1024M), as in 4G or 512M";
        assertThat(errors(job("(memory = -1G)"))).containsExactly(
                "job.jdf:1:36: memory: '-1G' is not a positive size: " + form);
        assertThat(errors(job("(memory = 0M)"))).containsExactly(
                "job.jdf:1:36: memory: '0M' is not a positive size: " + form);
        assertThat(errors(job("(memory = 0G)"))).containsExactly(
                "job.jdf:1:36: memory: '0G' is not a positive size: " + form);
        assertThat(errors(job("(memory = 1234567890G)"))).containsExactly(
                "job.jdf:1:36: memory: '1234567890G' is too large");
        assertThat(errors(job("(memory = 99999999999999999999999T)"))).containsExactly(
                "job.jdf:1:36: memory: '99999999999999999999999T' is too large");
    }

    @Test
    void anyTextIsASizeOfAtLeastOneMiBOrRefusedWithAReason() {
        Random random = new Random(35);
        String pieces = "0123456789.KMGTkmgtiBbX -+";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(14); n > 0; n--) {
                text.append(pieces.charAt(random.nextInt(pieces.length())));
            }
            try {
                assertThat(Values.memoryMiB(text.toString())).as(text.toString()).isPositive();
            } catch (Values.Bad bad) {
                assertThat(bad.getMessage()).as(text.toString()).isNotBlank();
            }
        }
    }

    @Test
    void anUnquotedSizeWithABlankIsTwoValues() {
        assertThat(errors(job("(memory = 4 GB)"))).containsExactly(
                "job.jdf:1:38: memory: takes one value, found 2; write a size as one word, its unit right after "
                        + "the number, as in 4G");
    }

    @Test
    void coresArePositiveAndGpusNotNegativeWholeNumbers() {
        assertThat(errors(job("(cores = 0)"))).containsExactly("job.jdf:1:35: cores: '0' is not a positive whole number");
        assertThat(errors(job("(cores = 2.5)"))).containsExactly(
                "job.jdf:1:35: cores: '2.5' is not a positive whole number");
        assertThat(errors(job("(cores = -4)"))).containsExactly("job.jdf:1:35: cores: '-4' is not a positive whole number");
        assertThat(errors(job("(cores = 12345678901)"))).containsExactly("job.jdf:1:35: cores: '12345678901' is too large");
        assertThat(errors(job("(gpus = -1)"))).containsExactly(
                "job.jdf:1:34: gpus: '-1' is not a whole number of GPUs (0 or more)");
        assertThat(errors(job("(gpus = one)"))).containsExactly(
                "job.jdf:1:34: gpus: 'one' is not a whole number of GPUs (0 or more)");
        assertThat(errors(job("(gpus = 12345678901)"))).containsExactly("job.jdf:1:34: gpus: '12345678901' is too large");
    }

    @Test
    void misspeltNamesGetTheirSuggestion() {
        assertThat(errors(job("(core = 2)(gpu = 1)"))).containsExactly(
                "job.jdf:1:27: unknown attribute 'core'; did you mean 'cores'?",
                "job.jdf:1:37: unknown attribute 'gpu'; did you mean 'gpus'?");
    }

    @Test
    void everyBadValueOfARequestIsNamedAtOnce() {
        assertThat(errors("""
                +( &(executable = /bin/true)(cores = 0) )
                 ( &(executable = /bin/true)(memory = -1G)(gpus = -1) )
                """)).containsExactly(
                "job.jdf:1:38: cores: '0' is not a positive whole number",
                "job.jdf:2:39: memory: '-1G' is not a positive size: a whole number and a unit K, M, G or T "
                        + "(binary: 1G = 1024M), as in 4G or 512M",
                "job.jdf:2:51: gpus: '-1' is not a whole number of GPUs (0 or more)");
    }

    @Test
    void aNodeMoreThanAnyHostHasIsRefusedNamingTheLargestHost() {
        assertThat(errors(job("(memory = 128G)"), HOSTS)).containsExactly(
                "job.jdf:1:36: component 1 needs 128G on one host; the largest host has 64G (fs0-n13)");
        assertThat(errors(job("(cores = 32)"), HOSTS)).containsExactly(
                "job.jdf:1:35: component 1 needs 32 cores on one host; the largest host has 16 cores (fs0-n13)");
        assertThat(errors(job("(gpus = 4)"), HOSTS)).containsExactly(
                "job.jdf:1:34: component 1 needs 4 GPUs on one host; the largest host has 2 GPUs (fs0-n13)");
        assertThat(parse(job("(cores = 16)(memory = 64G)(gpus = 2)")).components().get(0).resources())
                .isEqualTo(new NodeResources(16, 65536, 2));
        assertThat(JdfParser.parse("job.jdf", job("(cores = 16)(memory = 64G)(gpus = 2)"), HOSTS).totalNodes())
                .as("exactly the largest host fits").isEqualTo(1);
    }

    @Test
    void aPinnedComponentCountsOnlyItsClustersHosts() {
        assertThat(errors("""
                +( &(executable = /bin/true)(memory = 32G)(resourceManagerContact = fs1) )
                 ( &(executable = /bin/true)(cores = 16)(resourceManagerContact = fs2) )
                 ( &(executable = /bin/true)(memory = 32G)(cores = 16) )
                """, HOSTS)).containsExactly(
                "job.jdf:1:39: component 1 needs 32G on one host; the largest host of fs1 has 16G (fs1-n01)",
                "job.jdf:2:38: component 2 needs 16 cores on one host; the largest host of fs2 has 8 cores (fs2-n01)");
    }

    @Test
    void gpusWhereNoHostHasOne() {
        assertThat(errors(job("(gpus = 1)(resourceManagerContact = fs1)"), HOSTS)).containsExactly(
                "job.jdf:1:34: component 1 needs 1 GPU on one host; no host of fs1 has one");
        ClusterCatalog noGpus = new ClusterCatalog(Map.of("fs0", 2, "fs1", 2)).withHosts(List.of(
                new HostCapacity("fs1", "fs1-n01", 8, 16 * 1024, 0),
                new HostCapacity("fs0", "fs0-n01", 4, 8 * 1024, 0)));
        assertThat(errors(job("(gpus = 2)"), noGpus)).containsExactly(
                "job.jdf:1:34: component 1 needs 2 GPUs on one host; no host of fs0 or fs1 has any");
        assertThat(errors("&(jobType = flexible)(executable = /bin/true)(gpus = 1)", noGpus)).containsExactly(
                "job.jdf:1:54: component 1 needs 1 GPU on one host; no host of fs0 or fs1 has one");
    }

    @Test
    void aNodeFitsWhereOneHostHasAllItNeeds() {
        assertThat(JdfParser.parse("job.jdf", job("(cores = 8)(memory = 32G)(resourceManagerContact = fs0)"), HOSTS)
                .components().get(0).resources()).as("fs0-n13: 16 cores, 64G").isEqualTo(new NodeResources(8, 32768, 0));
        assertThat(JdfParser.parse("job.jdf", job("(gpus = 2)(count = 4)"), HOSTS).totalNodes()).isEqualTo(4);
    }

    @Test
    void allFiguresTogetherMustFitOnOneHost() {
        assertThat(errors(job("(memory = 32G)(cores = 16)(resourceManagerContact = fs2)(count = 1)"), HOSTS))
                .containsExactly("job.jdf:1:49: component 1 needs 16 cores on one host; the largest host of fs2 "
                        + "has 8 cores (fs2-n01)");
        assertThat(errors(job("(gpus = 1)(memory = 32G)(cores = 8)"), new ClusterCatalog(Map.of("a", 2, "b", 2))
                .withHosts(List.of(new HostCapacity("a", "a1", 8, 16 * 1024, 1),
                        new HostCapacity("b", "b1", 8, 32 * 1024, 0))))).containsExactly(
                "job.jdf:1:34: component 1 needs 8 cores, 32G and 1 GPU on one host; no host of a or b has all of "
                        + "them");
    }

    @Test
    void withoutTheHostsOfEverySiteAComponentMayGoToNothingIsChecked() {
        ClusterCatalog partly = Jdf.TESTBED.withHosts(List.of(new HostCapacity("fs0", "fs0-n01", 4, 8 * 1024, 0)));
        assertThat(JdfParser.parse("job.jdf", job("(cores = 64)(memory = 1T)(gpus = 8)"), partly).totalNodes())
                .as("fs1 and fs2 might have such hosts").isEqualTo(1);
        assertThat(errors(job("(cores = 64)(resourceManagerContact = fs0)"), partly)).containsExactly(
                "job.jdf:1:35: component 1 needs 64 cores on one host; the largest host of fs0 has 4 cores (fs0-n01)");
        assertThat(JdfParser.parse("job.jdf", job("(cores = 64)(memory = 1T)(gpus = 8)"), Jdf.TESTBED).totalNodes())
                .as("no hosts known").isEqualTo(1);
    }

    @Test
    void theNodesFitOnTheHostsTogetherAsManyToAHostAsFit() {
        assertThat(errors(job("(gpus = 1)(count = 10)"), HOSTS)).as("fs0: 4 hosts of 2 GPUs").containsExactly(
                "job.jdf:1:45: count 10: the hosts of any one cluster hold at most 8 nodes of 1 GPU each (fs0)");
        assertThat(JdfParser.parse("job.jdf", job("(gpus = 1)(count = 8)"), HOSTS).totalNodes()).isEqualTo(8);
        assertThat(errors(job("(cores = 8)(count = 10)(resourceManagerContact = fs0)"), HOSTS))
                .as("12 hosts of 4 cores hold none, 4 of 16 hold 2 each").containsExactly(
                "job.jdf:1:46: count 10: the hosts of fs0 hold at most 8 nodes of 8 cores each");
        assertThat(errors("&(jobType = flexible)(executable = /bin/true)(memory = 32G)(count = 20)", HOSTS))
                .as("fs0: 4 hosts of 64G hold 2 each, fs1 none, fs2: 8 of 32G one each").containsExactly(
                "job.jdf:1:69: count 20: the grid's hosts hold at most 16 nodes of 32G each");
        assertThat(errors(job("(memory = 16G)(count = 9)(resourceManagerContact = fs1)"), HOSTS))
                .as("a count larger than the cluster is said once").containsExactly(
                "job.jdf:1:49: count 9 is more than cluster fs1 has (8 nodes)");
        assertThat(errors(job("(cores = 4)(memory = 48G)(count = 5)(resourceManagerContact = fs0)"), HOSTS))
                .as("fs0-n13..n16 hold 4 such nodes each by cores (16), one by memory (64G)").containsExactly(
                "job.jdf:1:60: count 5: the hosts of fs0 hold at most 4 nodes of 4 cores and 48G each");
        assertThat(JdfParser.parse("job.jdf", job("(cores = 4)(count = 16)(resourceManagerContact = fs0)"), HOSTS)
                .totalNodes()).as("12 + 4 x 4 = 28 such nodes").isEqualTo(16);
    }

    @Test
    void aJobWithResourcesSurvivesAJsonRoundTrip() throws Exception {
        JobDescription job = parse("+( &(executable = /bin/true)(cores = 4)(memory = 1536M) )( &(executable = /bin/true) )");

        String json = Json.write(job);

        assertThat(json).contains("\"resources\":{\"cores\":4,\"memoryMiB\":1536,\"gpus\":0}");
        assertThat(Json.mapper().readValue(json, JobDescription.class)).isEqualTo(job);
        assertThat(Json.mapper().readValue(json.replace(",\"resources\":{\"cores\":4,\"memoryMiB\":1536,\"gpus\":0}", ""),
                JobDescription.class).components().get(0).resources()).as("a job written before resources")
                .isEqualTo(NodeResources.DEFAULT);
    }

    @Test
    void recordsRefuseWhatAJdfCannotSay() {
        assertThatThrownBy(() -> new NodeResources(0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NodeResources(1, -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NodeResources(1, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HostCapacity("fs0", "h", 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
