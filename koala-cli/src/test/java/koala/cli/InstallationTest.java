package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What the installed command line says about itself: its version, and the measurements it leaves out. */
class InstallationTest {

    @Test
    void theVersionNamesTheCommitTheBuildWasMadeFrom() {
        Properties build = new Properties();
        build.setProperty("version", "0.3.0");
        build.setProperty("commit", "771c4260713c");
        build.setProperty("localChanges", "false");
        assertThat(Koala.Version.line(build)).isEqualTo("koala 0.3.0, commit 771c4260713c");

        build.setProperty("localChanges", "true");
        assertThat(Koala.Version.line(build)).isEqualTo("koala 0.3.0, commit 771c4260713c with local changes");

        build.setProperty("commit", "unknown");
        assertThat(Koala.Version.line(build)).isEqualTo("koala 0.3.0, unknown commit");
        assertThat(Koala.Version.line(new Properties())).isEqualTo("koala (development build), unknown commit");
    }

    @Test
    void thisBuildWroteItsVersion() throws Exception {
        assertThat(new Koala.Version().getVersion()[0]).startsWith("koala ").doesNotContain("development build");
    }

    @Test
    void aCheckoutHasTheMeasurements() {
        assertThat(Measurements.present(Measurements.EXPERIMENT)).isTrue();
        assertThat(Measurements.present(Measurements.BENCH)).isTrue();
        assertThat(Measurements.present(List.of("org.knowm.xchart.NoSuchChart"))).isFalse();
        assertThat((Object) Koala.commandLine().getSubcommands().get("experiment").getCommand())
                .isInstanceOf(ExperimentCommand.class);
    }

    @Test
    void aMeasurementLeftOutSaysWhereToRunIt() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Koala()).addSubcommand("experiment", new Measurements.Absent());
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("experiment", "table2", "--out", "results")).isEqualTo(Koala.FAILURE);
        assertThat(err.toString()).contains("'experiment' is not part of this installation")
                .contains("bin/koala experiment table2 --out results");
    }
}
