package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
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
    void theMeasurementsAreListedAndSayWhereTheyRun() {
        CommandLine cli = Koala.commandLine();
        assertThat((Object) cli.getSubcommands().get("experiment").getCommand()).isInstanceOf(Measurements.Absent.class);
        assertThat((Object) cli.getSubcommands().get("bench").getCommand()).isInstanceOf(Measurements.Absent.class);
        assertThat(cli.getUsageMessage()).contains("bench").contains("experiment");
        assertThat(cli.getSubcommands().get("bench").getUsageMessage()).contains("module experiments")
                .contains("bin/koala bench --help");
    }

    @Test
    void aMeasurementLeftOutSaysWhereToRunIt() {
        StringWriter err = new StringWriter();
        CommandLine cli = Koala.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute("experiment", "table2", "--out", "results")).isEqualTo(Koala.FAILURE);
        assertThat(err.toString()).contains("'experiment' is not part of this command line")
                .contains("bin/koala experiment table2 --out results");
    }
}
