package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import koala.provisioning.PolicyKind;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The CLI names the provisioning policies as {@link PolicyKind} does, without a list of its own. */
class PolicyNamesTest {
    private static String help(String... command) {
        StringWriter out = new StringWriter();
        CommandLine cli = Koala.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.execute(command);
        return out.toString().replaceAll("\\s+", ""); // help wraps lines anywhere
    }

    @Test
    void fluentDeployListsEveryPolicy() {
        assertThat(help("fluent", "deploy", "--help"))
                .contains("static,ondemand,proactive,reserve,pool(default:ondemand)");
        assertThat(PolicyKind.shortNames()).containsExactly("static", "ondemand", "proactive", "reserve", "pool");
    }
}
