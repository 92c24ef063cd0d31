package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import koala.cli.Koala;
import koala.sim.MulticlusterQueue.Discipline;
import koala.sim.experiment.CoallocationSim;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code koala experiment coallocation-sim}: its options become the simulated experiment's settings. */
class CoallocationSimCommandTest {
    private static CoallocationSim.Settings parse(String... args) {
        ExperimentCommand.CoallocationSimCommand command = new ExperimentCommand.CoallocationSimCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void byDefaultTheSimulatedGridIsTheTestbedsAndTheSettingsAreTheExperimentsDefaults() {
        // the testbed's own plan (16, 8, 8 nodes) is where the sizes come from
        assertThat(ExperimentCommand.CoallocationSimCommand.testbedNodes()).containsExactly(16, 8, 8);
        assertThat(parse()).isEqualTo(CoallocationSim.Settings.defaults());
    }

    @Test
    void optionsSetLoadsSlowdownsSeedJobsGridPolicyAndQueue() {
        CoallocationSim.Settings s = parse("--loads", "0.5,0.7", "--slowdowns", "1.3", "--seed", "7", "--jobs", "500",
                "--clusters", "8,8", "--sizes", "1:2,8:1", "--runtimes", "lognormal:600:1.5", "--policy", "worst-fit:4",
                "--queue", "in-order", "--max-slowdown", "3");
        assertThat(s.loads()).containsExactly(0.5, 0.7);
        assertThat(s.slowdowns()).containsExactly(CoallocationSim.Slowdown.of(1.3));
        assertThat(s.seed()).isEqualTo(7);
        assertThat(s.jobs()).isEqualTo(500);
        assertThat(s.clusters()).extracting(c -> c.name() + " " + c.nodes()).containsExactly("fs0 8", "fs1 8");
        assertThat(s.workload().sizes().mean()).isEqualTo((1 * 2 + 8) / 3.0);
        assertThat(s.workload().runtime().spec()).isEqualTo("lognormal:600:1.5");
        assertThat(s.split().spec()).isEqualTo("worst-fit:4");
        assertThat(s.discipline()).isEqualTo(Discipline.IN_ORDER);
        assertThat(s.maxSlowdown()).isEqualTo(3);
    }

    @Test
    void badInputExitsWith2AndSaysWhy() {
        StringWriter err = new StringWriter();
        CommandLine cli = Experiments.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute("experiment", "coallocation-sim", "--queue", "lifo")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("--queue is fcfs or in-order, not 'lifo'");
        err.getBuffer().setLength(0);
        assertThat(cli.execute("experiment", "coallocation-sim", "--policy", "worst-fit")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("worst-fit places a flexible job whole");
    }

    @Test
    void theExperimentIsListedUnderExperiment() {
        StringWriter out = new StringWriter();
        CommandLine cli = Experiments.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.execute("experiment", "--help");
        assertThat(out.toString()).contains("coallocation-sim");
        assertThat(List.of(cli.getSubcommands().get("experiment").getSubcommands().keySet().toArray()))
                .contains("coallocation-sim");
    }
}
