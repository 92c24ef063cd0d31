package koala.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/koala}: one command line for the testbed, the daemons and the users of the grid. */
@Command(name = "koala", mixinStandardHelpOptions = true, versionProvider = Koala.Version.class,
        description = {"KOALA places jobs across several Sun Grid Engine clusters and runs framework instances "
                + "whose size follows their load.", ""},
        subcommands = {DemoCommand.class, TestbedCommand.class, SchedulerCommand.class, SubmitCommand.class,
                JobCommands.Jobs.class, JobCommands.Status.class, JobCommands.Cancel.class, JobCommands.Sites.class,
                AcctCommand.class,
                FrameworkCommands.All.class, FrameworkCommands.One.class, FluentCommands.class,
                TokenCommand.class, AdminCommand.class, StoreCommand.class, ValidateCommand.class, ConfigCommand.class, AgentCommand.class},
        footer = {"", "From a checkout, also: bin/koala test   builds, brings the testbed up and runs every test.",
                "Exit status: 0 success, 1 failure, 2 bad input."})
public final class Koala {
    public static final int FAILURE = 1;
    public static final int BAD_INPUT = 2;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * Every command: the measurements ({@code bench}, {@code experiment}) as stand-ins that say where they
     * run ({@link Measurements}; {@code bin/koala} runs them from the module {@code experiments}), and
     * {@code help} last. The man pages and the shell completion the package ships are made from it.
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Koala());
        Measurements.addTo(cli);
        // qstat's own options (-u, -f, -j ...) go to it as they are
        cli.getSubcommands().get("testbed").getSubcommands().get("qstat").setUnmatchedOptionsArePositionalParams(true);
        cli.addSubcommand(new CommandLine.HelpCommand());
        return withErrorHandling(cli);
    }

    /** An exception a command throws becomes a message and exit status 2 (bad input) or 1. */
    public static CommandLine withErrorHandling(CommandLine cli) {
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> failed(e, commandLine.getErr()));
        return cli;
    }

    /** What a command's exception says on {@code err}, and its exit status: 2 for bad input, else 1. */
    static int failed(Exception e, java.io.PrintWriter err) {
        err.println("koala: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        err.flush();
        return e instanceof IllegalArgumentException || e instanceof koala.grid.ConfigException
                ? BAD_INPUT : FAILURE;
    }

    /**
     * {@code koala --version}: the version and the git commit the build was made from, as the build
     * wrote them to {@code version.properties} (koala-cli's pom): "koala 0.1.0, commit 771c426abcd1",
     * with "with local changes" when the work tree differed from it, "unknown commit" when the build
     * had no git repository (a source tarball) or no git.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws java.io.IOException {
            java.util.Properties build = new java.util.Properties();
            try (java.io.InputStream in = Koala.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    build.load(in);
                }
            }
            return new String[] {line(build)};
        }

        static String line(java.util.Properties build) {
            String version = build.getProperty("version", "(development build)");
            String commit = build.getProperty("commit", "unknown");
            if (commit.isBlank() || commit.equals("unknown")) {
                return "koala " + version + ", unknown commit";
            }
            return "koala " + version + ", commit " + commit
                    + (Boolean.parseBoolean(build.getProperty("localChanges")) ? " with local changes" : "");
        }
    }
}
