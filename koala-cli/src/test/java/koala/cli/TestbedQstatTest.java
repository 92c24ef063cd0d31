package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code koala testbed qstat [CELL] [ARG...]} against a grid of two local cells whose client commands
 * are a stand-in {@code qstat} that writes down the cell it was given ({@code SGE_CELL}, the port) and
 * its arguments (the real one needs the testbed's qmasters: {@code koala testbed qstat} on it).
 */
class TestbedQstatTest {
    @TempDir
    Path dir;

    private Path grid;
    private Path calls;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void cells() throws Exception {
        calls = dir.resolve("calls");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path qstat = Files.writeString(bin.resolve("qstat"), "#!/bin/sh\necho \"$SGE_CELL:$SGE_QMASTER_PORT $*\" >> "
                + calls + "\n[ \"$1\" = -fail ] && exit 3\nexit 0\n");
        Files.setPosixFilePermissions(qstat, PosixFilePermissions.fromString("rwxr-xr-x"));
        grid = Files.writeString(dir.resolve("grid.properties"), """
                grid.sites = fs0, fs1
                site.fs0.sge.cell = fs0
                site.fs0.sge.qmasterPort = 6460
                site.fs0.sge.bin = BIN
                site.fs1.sge.cell = fs1
                site.fs1.sge.qmasterPort = 6462
                site.fs1.sge.bin = BIN
                """.replace("BIN", bin.toString()));
    }

    private int koala(String... args) {
        CommandLine cli = Koala.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private java.util.List<String> calls() throws Exception {
        return Files.exists(calls) ? Files.readAllLines(calls) : java.util.List.of();
    }

    @Test
    void aCellsQstatRunsWithThatCellsEnvironmentAndQstatsOwnOptions() throws Exception {
        assertThat(koala("testbed", "qstat", "--config", grid.toString(), "fs1", "-u", "*", "-f")).isZero();

        assertThat(calls()).containsExactly("fs1:6462 -u * -f");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void withoutACellEveryCellsQstatRunsUnderAHeading() throws Exception {
        assertThat(koala("testbed", "qstat", "--config", grid.toString(), "-g", "c")).isZero();

        assertThat(calls()).containsExactly("fs0:6460 -g c", "fs1:6462 -g c");
        assertThat(out.toString().lines()).containsExactly("== fs0 ==", "", "== fs1 ==");
    }

    @Test
    void aCellTheGridDoesNotHaveIsBadInputAndAFailingQstatAFailure() throws Exception {
        assertThat(koala("testbed", "qstat", "--config", grid.toString(), "fs9", "-f")).isEqualTo(Koala.BAD_INPUT);
        assertThat(err.toString().trim()).isEqualTo("koala: no cell 'fs9' in " + grid + " (cells: fs0, fs1)");
        assertThat(calls()).isEmpty();

        assertThat(koala("testbed", "qstat", "--config", grid.toString(), "fs0", "-fail")).isEqualTo(Koala.FAILURE);
        assertThat(calls()).containsExactly("fs0:6460 -fail");
    }
}
