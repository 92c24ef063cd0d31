package koala.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * The measurement commands, {@code experiment} (the simulator, charts with XChart and PDFBox) and
 * {@code bench} (JMH, commons-math3): what a checkout builds, and what the installed package leaves
 * out with their libraries, which no daemon or pilot needs. Each is added to the command line when
 * its libraries are on the class path; otherwise a stand-in of the same name says where to run it.
 * Picocli reads a command's fields and methods when it is added, so a command whose types are
 * missing must not be added at all: hence the check before, not a failure when it runs.
 */
final class Measurements {
    /** A class of each library {@code experiment} needs: the simulator and its charts. */
    static final List<String> EXPERIMENT = List.of("koala.sim.Simulation", "org.knowm.xchart.XYChart");
    /** A class of each library {@code bench} needs: the placement benchmark and JMH. */
    static final List<String> BENCH = List.of("koala.bench.PlacementBench", "org.openjdk.jmh.runner.Runner");

    private Measurements() {
    }

    static void addTo(CommandLine cli) {
        cli.addSubcommand("bench", present(BENCH) ? new BenchCommand() : new Absent());
        cli.addSubcommand("experiment", present(EXPERIMENT) ? new ExperimentCommand() : new Absent());
    }

    static boolean present(List<String> classes) {
        for (String name : classes) {
            try {
                Class.forName(name, false, Measurements.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
        return true;
    }

    /** The stand-in for a measurement command this installation does not have: exit status 1, and why. */
    @Command(mixinStandardHelpOptions = true,
            description = {"Not part of this installation: the measurements (the simulator's experiments, the "
                    + "benchmarks) and their libraries are left out of the installed package. Run them from a "
                    + "checkout of KOALA: bin/koala ${COMMAND-NAME} --help."})
    static final class Absent implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Unmatched
        List<String> args;

        @Override
        public Integer call() {
            spec.commandLine().getErr().println("koala: '" + spec.name() + "' is not part of this installation: the "
                    + "measurements and their libraries (the simulator's XChart and PDFBox, the benchmarks' JMH and "
                    + "commons-math3) are left out of the installed package; run it from a checkout of KOALA: "
                    + "bin/koala " + spec.name() + (args == null ? "" : " " + String.join(" ", args)));
            return Koala.FAILURE;
        }
    }
}
