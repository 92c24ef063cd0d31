package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import koala.testbed.TestbedPlan;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The plan {@code koala testbed up} brings the testbed to, read from its options (bringing it up needs root). */
class TestbedUpOptionsTest {
    private static TestbedPlan plan(String... args) {
        TestbedCommand.Up up = new TestbedCommand.Up();
        new CommandLine(up).parseArgs(args);
        return up.plan();
    }

    @Test
    void withoutOptionsItIsTheDefaultTestbedWithoutAStandbyHost() {
        assertThat(plan()).isEqualTo(TestbedCommand.defaultPlan());
        assertThat(plan().standbyHost()).isFalse();
        assertThat(plan().hosts()).extracting(h -> h.name()).doesNotContain("koala-b").hasSize(3 + 32);
    }

    @Test
    void standbyHostAddsKoalaBAndKeepsTheOtherOptions() {
        TestbedPlan plan = plan("--standby-host", "--store", "postgres", "--wan-delay", "0");
        assertThat(plan).isEqualTo(TestbedCommand.defaultPlan().withWanDelay(0).withStore("postgres").withStandbyHost(true));
        assertThat(plan.hosts()).hasSize(3 + 32 + 1);
        assertThat(plan.hosts().get(35).name()).isEqualTo("koala-b");
    }

    @Test
    void theHelpNamesTheOptionAndTheHost() {
        StringWriter help = new StringWriter();
        new CommandLine(new TestbedCommand.Up()).usage(new PrintWriter(help));
        assertThat(help.toString().replaceAll("\\s+", " ")).contains("--standby-host", "koala-b at 198.18.0.2",
                "An up without it removes that host");
    }
}
