package koala.fluent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** An instance's JDF: initial workers split over components that each fit in one cluster. */
class FluentJdfTest {
    private static FluentJdf jdf(int workers) {
        return new FluentJdf("t", "static", workers, 20, null, 1, null, null, Path.of("/usr/bin/java"),
                List.of(Path.of("/x.jar")));
    }

    @Test
    void twentyWorkersOnAGridWhoseLargestClusterHas16AreAComponentOf16AndOneOf4() {
        assertThat(workerCounts(jdf(20).text(16))).containsExactly(16, 4);
        assertThat(workerCounts(jdf(32).text(16))).containsExactly(16, 16);
        assertThat(workerCounts(jdf(20).text())).containsExactly(20);
    }

    @Test
    void noInitialWorkersIsOneWorkerComponentOfNone() {
        // the runner takes the worker component as the template of the workers it grows
        assertThat(workerCounts(jdf(0).text(16))).containsExactly(0);
    }

    private static List<Integer> workerCounts(String text) {
        Matcher m = Pattern.compile("\\(role = worker\\)\\n    \\(count = (\\d+)\\)").matcher(text);
        return m.results().map(r -> Integer.parseInt(r.group(1))).toList();
    }

    @Test
    void theLogDirectoryGoesToTheMasterForItsMetricsAndToTheWorkersForTheirReaders() {
        String text = new FluentJdf("t", "static", 1, 20, null, 4, null, Path.of("/home/koala/koala-fluent"), null,
                List.of()).text();
        assertThat(text).contains("\"koala.fluent.master.MasterMain\" \"--slots\" \"4\" \"--log-dir\" "
                + "\"/home/koala/koala-fluent\")");
        assertThat(text).contains("\"koala.fluent.device.DeviceMain\" \"--slots\" \"4\" \"--log-dir\" "
                + "\"/home/koala/koala-fluent\")");
    }

    /** Suspension is the master's: --suspend K goes to it alone, and 0 (the default) writes nothing. */
    @Test
    void aMasterThatSuspendsWordCountsIsToldHowOftenTheWorkersAreNot() {
        String text = new FluentJdf("t", "ondemand", 0, 20, null, 8, null, null, null, List.of(), 3).text();
        assertThat(text).contains("\"koala.fluent.master.MasterMain\" \"--slots\" \"8\" \"--suspend\" \"3\")");
        assertThat(text).doesNotContain("\"koala.fluent.device.DeviceMain\" \"--slots\" \"8\" \"--suspend\"");
        assertThat(new FluentJdf("t", "ondemand", 0, 20, null, 8, null, null, null, List.of()).text())
                .doesNotContain("--suspend");
        assertThatThrownBy(() -> new FluentJdf("t", "ondemand", 0, 20, null, 8, null, null, null, List.of(), -1))
                .hasMessageContaining("suspend: -1 is negative");
    }
}
