package koala.experiments;

import koala.cli.Koala;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/koala bench} and {@code bin/koala experiment}: the measurements' own command line, run
 * by {@code bin/koala} from this module's class path ({@code experiments/target/lib}), which holds the
 * simulator's and the benchmarks' libraries (XChart, PDFBox, JMH, commons-math3) that koala-cli's, the
 * daemons' and the pilots' class path leaves out. Its commands read as {@code koala bench ...} and
 * {@code koala experiment ...}; the exit statuses are koala-cli's (0 success, 1 failure, 2 bad input).
 */
@Command(name = "koala", mixinStandardHelpOptions = true,
        description = {"KOALA's measurements: the benchmarks and the experiments (module experiments).", ""},
        subcommands = {BenchCommand.class, ExperimentCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Every other command: bin/koala --help.", "Exit status: 0 success, 1 failure, 2 bad input."})
public final class Experiments {
    private Experiments() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** {@code bench} and {@code experiment}, with the command line's handling of a failed command. */
    static CommandLine commandLine() {
        return Koala.withErrorHandling(new CommandLine(Experiments.class));
    }
}
