package koala.grid;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ConfigCheck} on whole files: every problem at once, at its file and line. */
class ConfigCheckTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private List<String> problems(Path file) {
        return ConfigCheck.check(file, List.of()).problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void aCleanFileIsSummedUpBySitesAndKeys() throws Exception {
        Files.createFile(dir.resolve("id_fs2"));
        Path file = write("grid.properties", """
                # three sites, one of them remote
                grid.sites = fs0, fs1, fs2
                site.fs0.sge.cell = fs0
                site.fs1.sge.cell = fs1
                site.fs1.node.count = 8
                site.fs2.sge.cell = fs2
                site.fs2.ssh.host = fs2-head
                site.fs2.ssh.key = %s
                scheduler.claimTimeout = 90.5
                files = genome.dat
                file.genome.dat.size = 4G
                file.genome.dat.sites = fs1
                bandwidth.fs1.fs0 = 40
                """.formatted(dir.resolve("id_fs2")));

        ConfigCheck.Report report = ConfigCheck.check(file, List.of());

        assertThat(report.problems()).isEmpty();
        assertThat(report.summary()).isEqualTo(file + ": 3 sites, 12 keys, no problems");
        assertThat(report.grid()).isPresent();
    }

    @Test
    void everyProblemIsFoundAtOnceInTheOrderOfTheFile() throws Exception {
        Path file = write("grid.properties", """
                grid.sites = fs0, fs1, fs2
                site.fs0.sge.cell = fs0
                site.fs0.sge.cel = fs0
                site.fs0.sge.qmasterPort = 70000
                site.fs2.sge.cell = fs2
                site.fs2.ssh.host = fs2-head
                site.fs3.sge.cell = fs3
                site.fs3.node.count = 4
                scheduler.port = http
                scheduler.claimTimout = 90
                scheduler.kisInterval = 90x
                site.fs2.ssh.hostKeyCheck = maybe
                scheduler.logLevel = loud
                file.reads.dat.size = 512M
                site.fs0.sge.cell = again
                """);

        assertThat(problems(file)).containsExactly(
                file + ":1: site.fs1.sge.cell: missing (fs1 is listed in grid.sites)",
                file + ":3: site.fs0.sge.cel: unknown key; did you mean site.fs0.sge.cell?",
                file + ":4: site.fs0.sge.qmasterPort = 70000: a port is 0..65535",
                file + ":6: site.fs2.ssh.key: missing (fs2 is a remote site, site.fs2.ssh.host = fs2-head): the "
                        + "private key KOALA logs in with",
                file + ":7: site.fs3.sge.cell: site fs3 is not listed in grid.sites (fs0, fs1, fs2): list it there, "
                        + "or its 2 keys are ignored",
                file + ":9: scheduler.port = 'http': not a whole number",
                file + ":10: scheduler.claimTimout: unknown key; did you mean scheduler.claimTimeout?",
                file + ":11: scheduler.kisInterval = '90x': not a number of seconds",
                file + ":12: site.fs2.ssh.hostKeyCheck = 'maybe': yes or no",
                file + ":13: scheduler.logLevel = 'loud': not a log level (off, fatal, error, warn, info, debug, trace, all)",
                file + ":14: file.reads.dat.size: reads.dat is not listed in files (none)",
                file + ":15: site.fs0.sge.cell: given again (first on line 2); the first value counts");
    }

    @Test
    void aRemoteSitesKeyMustBeThere() throws Exception {
        Path file = write("grid.properties", "grid.sites = fs2\nsite.fs2.sge.cell = fs2\nsite.fs2.ssh.host = h\n"
                + "site.fs2.ssh.key = " + dir.resolve("absent") + "\n");

        assertThat(problems(file)).containsExactly(file + ":4: site.fs2.ssh.key = " + dir.resolve("absent")
                + ": no such file");
    }

    @Test
    void noSitesAndNoFile() throws Exception {
        Path empty = write("empty.properties", "# nothing yet\n");
        assertThat(problems(empty)).containsExactly(empty + ": grid.sites: no sites listed");

        Path absent = dir.resolve("absent.properties");
        assertThat(problems(absent)).containsExactly(absent + ": no such file");
    }

    @Test
    void aKeyInAnIncludedFileIsPlacedThereAndAContinuedLineOnItsFirstLine() throws Exception {
        write("sites.properties", "site.fs0.sge.cell = fs0\n\nsite.fs0.node.cout = 16\n");
        Path file = write("grid.properties", "grid.sites = fs0\ninclude = sites.properties\n"
                + "site.fs0.node.nativeSpec = -l exclusive=true,\\\n    h_rt=900\nscheduler.placementTries = \\\n  many\n");

        assertThat(problems(file)).containsExactly(
                file + ":5: scheduler.placementTries = 'many': not a whole number",
                dir.resolve("sites.properties") + ":3: site.fs0.node.cout: unknown key; did you mean site.fs0.node.count?");
    }

    @Test
    void aFileThatCloseToFilesListsMustNameListedSites() throws Exception {
        Path file = write("grid.properties", "grid.sites = fs0\nsite.fs0.sge.cell = fs0\nfiles = a.dat\n"
                + "file.a.dat.sites = fs0, fs5\nfile.a.dat.size = 4T\nbandwidth.default = fast\n");

        assertThat(problems(file)).containsExactly(
                file + ":4: file.a.dat.sites: fs5 is not a site in grid.sites",
                file + ":5: file.a.dat.size = '4T': not a size (e.g. 512M, 4G)",
                file + ":6: bandwidth.default = 'fast': not a number above 0");
    }

    /** A rule of another module adds its problems in its own words, placed at the key's line; a key gets one problem. */
    @Test
    void rulesAddTheirProblemsAtTheKeysLine() throws Exception {
        Path file = write("grid.properties", "grid.sites = fs0\nsite.fs0.sge.cell = fs0\nscheduler.placement = best-fit\n"
                + "scheduler.port = 0\n");
        ConfigCheck.Rule placement = (grid, findings) -> {
            findings.add("scheduler.placement", "scheduler.placement = best-fit: not a placement policy");
            findings.add(new ConfigException(file, "scheduler.port", "scheduler.port = 0: said twice"));
        };

        assertThat(ConfigCheck.check(file, List.of(placement)).problems()).extracting(ConfigProblem::toString)
                .containsExactly(file + ":3: scheduler.placement = best-fit: not a placement policy",
                        file + ":4: scheduler.port = 0: a port is 1..65535");
    }

    /** A site that cannot be read is a problem; the rules still look at the rest of the file. */
    @Test
    void rulesRunEvenWhenASiteCannotBeRead() throws Exception {
        Path file = write("grid.properties", "grid.sites = fs0, fs1\nsite.fs0.sge.cell = fs0\n"
                + "scheduler.placement = best-fit\n");
        ConfigCheck.Rule sites = (grid, findings) -> findings.add("scheduler.placement",
                "scheduler.placement = best-fit: sites read " + grid.sites().stream().map(SiteConfig::name).toList());

        ConfigCheck.Report report = ConfigCheck.check(file, List.of(sites));

        assertThat(report.problems()).extracting(ConfigProblem::toString).containsExactly(
                file + ":1: site.fs1.sge.cell: missing (fs1 is listed in grid.sites)",
                file + ":3: scheduler.placement = best-fit: sites read [fs0]");
        assertThat(report.grid()).isEmpty();
    }
}
