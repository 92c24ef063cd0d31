package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The measurements' command line has the real commands, whose libraries this module's class path holds. */
class ExperimentsTest {

    @Test
    void benchAndExperimentAreTheRealCommands() {
        CommandLine cli = Experiments.commandLine();
        assertThat((Object) cli.getSubcommands().get("bench").getCommand()).isInstanceOf(BenchCommand.class);
        assertThat((Object) cli.getSubcommands().get("experiment").getCommand()).isInstanceOf(ExperimentCommand.class);
        assertThat(cli.getSubcommands().get("bench").getSubcommands()).containsKeys("placement", "metrics",
                "scheduler-load", "grow", "sge-latency");
        assertThat(cli.getSubcommands().get("experiment").getSubcommands()).containsKeys("table2", "testbed",
                "coallocation-sim", "resources");
    }

    @Test
    void theirLibrariesAreOnThisClassPath() throws Exception {
        Class.forName("org.knowm.xchart.XYChart");
        Class.forName("org.openjdk.jmh.runner.Runner");
        Class.forName("koala.sim.Simulation");
        assertThat(Experiments.class.getClassLoader().getResource("META-INF/BenchmarkList")).isNotNull();
    }

    @Test
    void theTestbedExperimentRunsEveryPolicyByDefault() {
        StringWriter out = new StringWriter();
        CommandLine cli = Experiments.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.execute("experiment", "testbed", "--help");
        assertThat(out.toString().replaceAll("\\s+", "")) // help wraps lines anywhere
                .contains("policies,inthisorder(default:static,ondemand,proactive,reserve,pool)");
    }
}
