package koala.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/koala}: one command line for the testbed, the daemons and the users of the grid. */
@Command(name = "koala", mixinStandardHelpOptions = true, versionProvider = Koala.Version.class,
        description = {"KOALA places jobs across several Sun Grid Engine clusters and runs framework instances "
                + "whose size follows their load.", ""},
        subcommands = {DemoCommand.class, TestbedCommand.class, SchedulerCommand.class, SubmitCommand.class,
                JobCommands.Jobs.class, JobCommands.Status.class, JobCommands.Cancel.class, JobCommands.Sites.class,
                FrameworkCommands.All.class, FrameworkCommands.One.class, FluentCommands.class,
                TokenCommand.class, ValidateCommand.class, ConfigCommand.class, AgentCommand.class, BenchCommand.class,
                ExperimentCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Also: bin/koala test   builds, brings the testbed up and runs every test.",
                "Exit status: 0 success, 1 failure, 2 bad input."})
public final class Koala {
    public static final int FAILURE = 1;
    public static final int BAD_INPUT = 2;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return withErrorHandling(new CommandLine(new Koala()));
    }

    /** An exception a command throws becomes a message and exit status 2 (bad input) or 1. */
    static CommandLine withErrorHandling(CommandLine cli) {
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> failed(e, commandLine.getErr()));
        return cli;
    }

    /** What a command's exception says on {@code err}, and its exit status: 2 for bad input, else 1. */
    static int failed(Exception e, java.io.PrintWriter err) {
        err.println("koala: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        err.flush();
        return e instanceof IllegalArgumentException || e instanceof koala.common.grid.ConfigException
                ? BAD_INPUT : FAILURE;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Koala.class.getPackage().getImplementationVersion();
            return new String[] {"koala " + (v == null ? "(development build)" : v)};
        }
    }
}
