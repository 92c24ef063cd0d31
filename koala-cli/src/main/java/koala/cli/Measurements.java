package koala.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * The measurement commands, {@code bench} and {@code experiment}, as this command line lists them.
 * They live in the module {@code experiments} with their libraries (the simulator's XChart and PDFBox,
 * the benchmarks' JMH and commons-math3), which no user command, daemon or pilot needs: in a checkout
 * {@code bin/koala bench|experiment} runs them from that module's class path
 * ({@code koala.experiments.Experiments}), and the installed package leaves them out. Here each is a
 * stand-in of the same name, so that {@code --help}, the man pages and the completion name them and
 * say where to run them.
 */
final class Measurements {
    private Measurements() {
    }

    static void addTo(CommandLine cli) {
        add(cli, "bench", "Benchmarks that print their figures");
        add(cli, "experiment", "The paper's experiments in the simulator, and the policies, sharing, co-allocation "
                + "and Dask on the testbed");
    }

    private static void add(CommandLine cli, String name, String what) {
        cli.addSubcommand(name, new Absent());
        cli.getSubcommands().get(name).getCommandSpec().usageMessage().description(what + " (module experiments, "
                + "with their libraries): from a checkout of KOALA, bin/koala " + name + " --help. The installed "
                + "package leaves them out.");
    }

    /** The stand-in for a measurement command: exit status 1, and where to run it. */
    @Command(mixinStandardHelpOptions = true)
    static final class Absent implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Unmatched
        List<String> args;

        @Override
        public Integer call() {
            spec.commandLine().getErr().println("koala: '" + spec.name() + "' is not part of this command line: the "
                    + "measurements and their libraries (the simulator's XChart and PDFBox, the benchmarks' JMH and "
                    + "commons-math3) are in the module experiments, left out of the installed package; run it from "
                    + "a checkout of KOALA: bin/koala " + spec.name() + (args == null ? "" : " " + String.join(" ", args)));
            return Koala.FAILURE;
        }
    }
}
