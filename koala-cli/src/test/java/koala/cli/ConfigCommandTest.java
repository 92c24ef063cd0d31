package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code koala config}: the effective provisioning settings, where each comes from, and bad values. */
class ConfigCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int koala(String... args) {
        CommandLine cli = Koala.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private Path grid(String provisioning) throws Exception {
        return Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n"
                + "site.fs0.node.count = 16\n" + provisioning);
    }

    @Test
    void aSiteCapsTheJdfsFMaxAndEveryValueSaysWhereItCameFrom() throws Exception {
        Path config = grid("site.fs0.provisioning.fMax = 12\nsite.fs0.provisioning.uMin = 30\n"
                + "scheduler.arbitration.policy = fair\nscheduler.arbitration.patience = 60\n");
        Path jdf = Files.writeString(dir.resolve("fw.jdf"), "+(&(jobType = framework)(provisioning = proactive)"
                + "(fMax = 20)(role = master)(count = 1)(executable = /bin/sleep)(arguments = 60))"
                + "(&(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 60))"
                + "(&(role = worker)(count = 2)(executable = /bin/sleep)(arguments = 60))");

        assertThat(koala("config", "--config", config.toString(), "--jdf", jdf.toString())).isZero();

        assertThat(out.toString().lines()).containsExactly(
                "grid: framework instances share a full grid by policy fair, at most 10% of the capacity taken back "
                        + "per 15 s, grace 15 s, window 300 s, patience 60 s",
                "site fs0",
                "  provisioning = proactive from jdf",
                "  fMax = 12 from site fs0 cap (jdf asked 20)",
                "  tIdle = 2 × O_grow from default (n = 2 for proactive)",
                "  uMin = 30% from site fs0",
                "  uMax = 50% from default",
                "  samplePeriod = 40 s from default",
                "  orchestratorThreshold = 45 from default",
                "  initialWorkers = 2 from jdf",
                "  reserve = 50% from default",
                "  pool = 8 idle workers from default",
                "  weight = 1 from default",
                "  minShare = 0 nodes from default");
    }

    @Test
    void aBadSiteValueIsRefusedWithItsKeyAndTheReason() throws Exception {
        Path config = grid("site.fs0.provisioning.uMin = 70\nsite.fs0.provisioning.uMax = 60\n");

        assertThat(koala("config", "--config", config.toString())).isEqualTo(Koala.BAD_INPUT);

        assertThat(err.toString().trim()).isEqualTo(config + ": site.fs0.provisioning.uMax: 60 must be above uMin (70)");
    }
}
