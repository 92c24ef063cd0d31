package koala.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/** JMH's annotation processor ran: the Runner will find the benchmark (without running it here). */
class BenchmarkListTest {

    @Test
    void theGeneratedBenchmarkListNamesThePlacementBenchmark() {
        Set<BenchmarkListEntry> entries = BenchmarkList.defaultList().getAll(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), java.util.List.of());
        assertThat(entries.stream().map(BenchmarkListEntry::getUsername).collect(Collectors.toSet()))
                .contains(PlacementBenchmark.class.getName() + ".decision", ResourcePlacementBenchmark.class.getName() + ".decision");
    }

    @Test
    void optionsCoverEveryPolicyAtEveryGridSizeWithOneForkAndOneThread() {
        var options = PlacementBench.options(BenchSettings.QUICK, koala.placement.PlacementPolicies.names());
        assertThat(options.getForkCount().get()).isEqualTo(1);
        assertThat(options.getThreads().get()).isEqualTo(1);
        assertThat(options.getParameter("policy").get()).hasSize(4);
        assertThat(options.getParameter("sites").get()).containsExactly("10", "100", "1000");
    }
}
