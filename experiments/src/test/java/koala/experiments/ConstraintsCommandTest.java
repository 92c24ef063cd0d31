package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import koala.cli.Koala;
import koala.sim.experiment.ConstraintsExperiment;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code koala experiment constraints}: its options become the experiment's settings. */
class ConstraintsCommandTest {
    private static ConstraintsExperiment.Settings parse(String... args) {
        ExperimentCommand.ConstraintsCommand command = new ExperimentCommand.ConstraintsCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void byDefaultTheSettingsAreTheExperimentsDefaults() {
        assertThat(parse()).isEqualTo(ConstraintsExperiment.Settings.defaults());
    }

    @Test
    void optionsSetTheGridTheStreamAndTheMix() {
        ConstraintsExperiment.Settings s = parse("--sites", "8", "--nodes", "20", "--slots", "2", "--rack", "5",
                "--instances", "50", "--events", "300", "--hard", "1", "--seed", "9", "--repeats", "1");
        assertThat(s.grid().sites()).isEqualTo(8);
        assertThat(s.grid().nodes()).isEqualTo(20);
        assertThat(s.grid().slots()).isEqualTo(2);
        assertThat(s.grid().rackSize()).isEqualTo(5);
        assertThat(s.instances()).isEqualTo(50);
        assertThat(s.events()).isEqualTo(300);
        assertThat(s.mix().hard()).isEqualTo(1.0);
        assertThat(s.seed()).isEqualTo(9);
        assertThat(s.repeats()).isEqualTo(1);
    }

    @Test
    void badInputExitsWith2AndSaysWhy() {
        StringWriter err = new StringWriter();
        CommandLine cli = Experiments.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute("experiment", "constraints", "--hard", "2")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("--hard is a chance between 0 and 1, not 2.0");
        err.getBuffer().setLength(0);
        assertThat(cli.execute("experiment", "constraints", "--slots", "0")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("must be at least 1");
    }
}
