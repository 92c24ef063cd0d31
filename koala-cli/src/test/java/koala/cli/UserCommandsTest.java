package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
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
}
