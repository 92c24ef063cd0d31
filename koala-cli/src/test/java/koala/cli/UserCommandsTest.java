package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The lean entry point serves the everyday commands exactly as the full command line does. */
class UserCommandsTest {
    @TempDir
    Path dir;

    @Test
    void everyUserCommandIsACommandOfTheFullCommandLineWithTheSameHelp() {
        CommandLine full = Koala.commandLine();
        for (String name : UserCommands.NAMES) {
            assertThat(full.getSubcommands()).containsKey(name);
            assertThat(UserCommands.commandLine(name).getSubcommands().get(name).getUsageMessage())
                    .isEqualTo(full.getSubcommands().get(name).getUsageMessage());
        }
    }

    @Test
    void badInputIsExitStatusTwoAsInTheFullCommandLine() {
        StringWriter err = new StringWriter();
        CommandLine cli = UserCommands.commandLine("status");
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("status", "not-a-number")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString()).contains("Invalid value for positional parameter at index 0 (JOB): 'not-a-number'");
    }

    @Test
    void theTrainingRunOfTheClassArchiveRunsEveryCommandAsExpected() throws Exception {
        try (CannedScheduler scheduler = CannedScheduler.start()) {
            assertThat(CliTraining.train(dir, scheduler)).isZero();
        }
    }

    /** As {@code qdel 103 104}: every id is cancelled in turn, one not found said and the rest still cancelled. */
    @Test
    void cancelTakesSeveralJobsAndGoesOnPastOneItCannot() throws Exception {
        try (CannedScheduler scheduler = CannedScheduler.start()) {
            scheduler.forget(104);
            String url = scheduler.url().toString();
            Captured all = captured(() -> UserCommands.run(new String[] {"cancel", "103", "105", "--scheduler", url}));
            Captured oneUnknown = captured(() -> UserCommands.run(
                    new String[] {"cancel", "--scheduler", url, "103", "104", "105"}));

            assertThat(all.status()).isZero();
            assertThat(all.out()).isEqualTo("job 103 CANCELLED\njob 105 CANCELLED\n");
            assertThat(oneUnknown.status()).isEqualTo(Koala.BAD_INPUT);
            assertThat(oneUnknown.out()).isEqualTo("job 103 CANCELLED\njob 105 CANCELLED\n");
            assertThat(oneUnknown.err()).contains("job 104 not found").contains("1 of 3 jobs not cancelled: 104");
            assertThat(scheduler.cancelled()).containsExactly(103L, 105L, 103L, 105L);
        }
    }

    private record Captured(int status, String out, String err) {
    }

    /** Runs {@code command} with standard output and error captured. */
    private static Captured captured(java.util.function.IntSupplier command) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int status = command.getAsInt();
            System.out.flush();
            return new Captured(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
