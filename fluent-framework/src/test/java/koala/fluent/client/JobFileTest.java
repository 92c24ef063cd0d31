package koala.fluent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobRequest;
import org.junit.jupiter.api.Test;

class JobFileTest {
    private static final Path BASE = Path.of("/data/jobs");

    @Test
    void eachLineIsAnApplicationRepeatedCountTimesWithItsSettings() {
        JobRequest job = JobFile.parse("burst.jobs", """
                # a burst
                rl  count=2 duration=20s cpu=40 loadPeriod=500ms   # two filters
                swc n=2 file=texts/a.txt duration=1.5m

                """, BASE);
        assertThat(job.name()).isEqualTo("burst.jobs");
        assertThat(job.apps()).containsExactly(
                new AppRequest("rl", 20_000L, 40.0, 500L, null, null),
                new AppRequest("rl", 20_000L, 40.0, 500L, null, null),
                new AppRequest("swc", 90_000L, null, null, 2, "/data/jobs/texts/a.txt"));
    }

    @Test
    void unsetSettingsAreLeftToTheMastersDefaults() {
        assertThat(JobFile.parse("j", "rl\nswc file=/t.txt", BASE).apps()).containsExactly(
                new AppRequest("rl", null, null, null, null, null),
                new AppRequest("swc", null, null, null, null, "/t.txt"));
    }

    @Test
    void mistakesNameTheFileLineAndColumn() {
        assertThatThrownBy(() -> JobFile.parse("b.jobs", "rl\n  video count=2", BASE))
                .hasMessage("b.jobs:2:3: 'video': an application is rl or swc");
        assertThatThrownBy(() -> JobFile.parse("b.jobs", "rl duration=soon", BASE))
                .hasMessage("b.jobs:1:13: duration 'soon': write 500ms, 20s, 2m or seconds");
        assertThatThrownBy(() -> JobFile.parse("b.jobs", "rl n=2", BASE))
                .hasMessage("b.jobs:1:4: 'n' is not a setting of rl; it takes count, cpu, duration, loadPeriod");
        assertThatThrownBy(() -> JobFile.parse("b.jobs", "swc n=9 file=x", BASE))
                .hasMessage("b.jobs:1:7: n '9': a whole number in 0..6");
        assertThatThrownBy(() -> JobFile.parse("b.jobs", "swc n=1", BASE))
                .hasMessage("b.jobs:1:1: swc needs file=PATH, the text whose words it counts");
        assertThatThrownBy(() -> JobFile.parse("b.jobs", "rl cpu=150", BASE))
                .hasMessage("b.jobs:1:8: cpu '150': a percentage in (0, 100]");
        assertThatThrownBy(() -> JobFile.parse("b.jobs", "# nothing\n", BASE))
                .hasMessage("b.jobs:1:1: no application: write e.g. 'rl count=2 duration=30s'");
    }

    @Test
    void theExampleJobFilesParseAndNameFilesThatExist() throws java.io.IOException {
        Path examples = Path.of("..", "jdf-examples", "fluent").toAbsolutePath().normalize();
        try (var files = java.nio.file.Files.list(examples)) {
            List<Path> jobs = files.filter(f -> f.toString().endsWith(".jobs")).sorted().toList();
            assertThat(jobs).extracting(f -> f.getFileName().toString()).containsExactly("burst.jobs", "rl-batch.jobs");
            for (Path f : jobs) {
                JobRequest job = JobFile.parse(f.toString(), java.nio.file.Files.readString(f), examples);
                assertThat(job.apps()).isNotEmpty().allSatisfy(a -> {
                    if (a.file() != null) {
                        assertThat(Path.of(a.file())).isRegularFile();
                    }
                });
            }
        }
    }
}
