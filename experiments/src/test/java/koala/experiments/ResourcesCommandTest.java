package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import koala.cli.Koala;
import koala.sim.experiment.ResourcesExperiment;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code koala experiment resources}: its options become the experiment's settings. */
class ResourcesCommandTest {
    private static ResourcesExperiment.Settings parse(String... args) {
        ExperimentCommand.ResourcesCommand command = new ExperimentCommand.ResourcesCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void byDefaultTheSettingsAreTheExperimentsDefaults() {
        assertThat(parse()).isEqualTo(ResourcesExperiment.Settings.defaults());
    }

    @Test
    void optionsSetTheGridTheLoadsAndTheRetries() {
        ResourcesExperiment.Settings s = parse("--scale", "2", "--loads", "0.6,0", "--jobs", "100", "--seed", "5",
                "--policy", "cluster-minimization", "--fail-after", "30", "--tries", "1");
        assertThat(s.scale()).isEqualTo(2);
        assertThat(s.loads()).containsExactly(0.6, 0.0);
        assertThat(s.jobs()).isEqualTo(100);
        assertThat(s.seed()).isEqualTo(5);
        assertThat(s.policy().name()).isEqualTo("cluster-minimization");
        assertThat(s.failAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.tries()).isEqualTo(1);
    }

    @Test
    void badInputExitsWith2AndSaysWhy() {
        StringWriter err = new StringWriter();
        CommandLine cli = Experiments.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute("experiment", "resources", "--policy", "best-fit")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("unknown placement policy 'best-fit'");
        err.getBuffer().setLength(0);
        assertThat(cli.execute("experiment", "resources", "--tries", "0")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("tries of at least 1");
        err.getBuffer().setLength(0);
        assertThat(cli.execute("experiment", "resources", "--fail-after", "-1")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("--fail-after is 0 seconds or more, not -1");
    }
}
