package koala.cli;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The lean entry point for the commands a grid user runs all day — {@code submit}, {@code jobs},
 * {@code status}, {@code cancel}, {@code sites} — which {@code bin/koala} starts instead of
 * {@link Koala} for them, with JVM options for a short-lived client and a class-data archive
 * ({@link CliTraining}). Their plain forms are read by {@link QuickArgs} without starting picocli
 * at all; anything else (help, a mistake) by a picocli command line that is given only the command
 * being run, where {@link Koala}'s builds the model of every command up front and reaches the
 * testbed, the scheduler, the simulator and the experiments. Either way the command is the same
 * object, so the same options, help and exit statuses. Library warnings go to standard error
 * through Log4j's simple logger: Log4j's full configuration is a daemon's concern.
 *
 * <p>On the development machine (2 cores, load average 15) this took {@code bin/koala submit
 * one.jdf} against a fake scheduler from 8.3 s to 0.8 s a call; see {@code bench cli}.
 */
@Command(name = "koala")
public final class UserCommands {
    /** The commands this entry point serves; {@code bin/koala} sends these here. */
    public static final Set<String> NAMES = Set.of("submit", "jobs", "status", "cancel", "sites");

    public static void main(String[] args) {
        CallTiming.mark("main");
        if (args.length == 0 || !NAMES.contains(args[0])) {
            Koala.main(args);
            return;
        }
        quietLogging();
        int status = run(args);
        CallTiming.end();
        System.exit(status);
    }

    /** Runs a user command: its plain forms straight ({@link QuickArgs}), anything else through picocli. */
    static int run(String[] args) {
        Optional<Callable<Integer>> quick = QuickArgs.parse(args);
        if (quick.isEmpty()) {
            return commandLine(args[0]).execute(args);
        }
        try {
            return quick.get().call();
        } catch (Exception e) {
            return Koala.failed(e, new PrintWriter(System.err, true));
        }
    }

    /** A command line that knows only {@code name}, one of {@link #NAMES}. */
    static CommandLine commandLine(String name) {
        Object command = command(name).orElseThrow(() -> new IllegalArgumentException("not a user command: " + name));
        return Koala.withErrorHandling(new CommandLine(new UserCommands()).addSubcommand(command));
    }

    private static Optional<Object> command(String name) {
        return Optional.ofNullable(switch (name) {
            case "submit" -> new SubmitCommand();
            case "jobs" -> new JobCommands.Jobs();
            case "status" -> new JobCommands.Status();
            case "cancel" -> new JobCommands.Cancel();
            case "sites" -> new JobCommands.Sites();
            default -> null;
        });
    }

    /** Log4j's simple logger, warnings and errors to standard error; set before anything logs. */
    static void quietLogging() {
        System.setProperty("log4j2.loggerContextFactory", "org.apache.logging.log4j.simple.SimpleLoggerContextFactory");
        System.setProperty("org.apache.logging.log4j.simplelog.level", "WARN");
    }
}
