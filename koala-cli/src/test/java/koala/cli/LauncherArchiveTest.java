package koala.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/koala} and the user commands' class archive after a build replaced a jar (as the
 * {@code mvn verify} of {@code bin/koala test} does): the JVM would drop the archive without a word
 * ({@code -Xshare:auto}), so the launcher makes it again when its user may build, and otherwise says
 * once that the command starts without it. The launcher runs here for real, on a checkout of its own
 * whose {@code koala-cli/target/lib} holds a stand-in jar ({@code koala.cli.UserCommands} and
 * {@code koala.cli.CliTraining} that print a line), so that no Maven build is needed; {@code
 * -Xshare:on} makes a command fail to start with an archive the JVM would drop. About 8 s.
 */
class LauncherArchiveTest {
    @TempDir
    Path checkout;

    /** The DRMAA binding, outside the checkout as on a real machine. */
    @TempDir
    Path machine;

    private Path lib;
    private Path archive;

    @BeforeEach
    void aBuiltCheckoutWithItsArchive() throws Exception {
        Path bin = Files.createDirectories(checkout.resolve("bin"));
        Files.copy(Path.of("..", "bin", "koala").toAbsolutePath().normalize(), bin.resolve("koala"));
        Path target = Files.createDirectories(checkout.resolve("koala-cli/target"));
        lib = Files.createDirectories(target.resolve("lib"));
        archive = target.resolve("user-commands.jsa");
        standIn(lib.resolve("koala-cli.jar"), "one");
        standIn(machine.resolve("drmaa.jar"), "drmaa");
        // the training run as bin/koala build makes it, with the same class path
        Process dump = new ProcessBuilder("java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                "-Xshare:auto", "-XX:ArchiveClassesAtExit=" + archive, "-cp",
                lib + "/*:" + machine.resolve("drmaa.jar"), "koala.cli.CliTraining").redirectErrorStream(true).start();
        dump.getInputStream().transferTo(OutputStream.nullOutputStream());
        assertThat(dump.waitFor(60, TimeUnit.SECONDS) && dump.exitValue() == 0).as("the archive dumped").isTrue();
        Files.writeString(target.resolve("user-commands.jsa.classpath"), lib + "/*:" + machine.resolve("drmaa.jar")
                + "\n");
        Files.createFile(target.resolve(".built"));
    }

    @Test
    void aFreshArchiveIsUsedWithoutAWord() throws Exception {
        Run run = koala(List.of(), "jobs");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("jobs from build one\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void aJarBuiltAgainAfterTheArchiveGetsTheArchiveMadeAgainBeforeTheCommandStarts() throws Exception {
        jarBuiltAgain();

        Run first = koala(List.of(), "jobs");
        Run second = koala(List.of(), "jobs");

        // -Xshare:on fails to start with an archive that does not match its jars: both ran with a fresh one
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo("jobs from build two\n");
        assertThat(first.err()).contains("the user commands' class archive is older than the build in " + lib
                + ": making it again").contains("made again in");
        assertThat(second.status()).as(second.err()).isZero();
        assertThat(second.err()).isEmpty();
    }

    @Test
    void aCheckoutMovedElsewhereGetsItsArchiveMadeAgainForItsNewPlace() throws Exception {
        Path moved = Files.move(checkout.resolve("koala-cli"), Files.createDirectories(checkout.resolve("moved"))
                .resolve("koala-cli"));
        Files.move(checkout.resolve("bin"), checkout.resolve("moved/bin"));
        checkout = checkout.resolve("moved");

        Run run = koala(List.of(), "jobs");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).contains("making it again");
        assertThat(Files.readString(moved.resolve("target/user-commands.jsa.classpath")))
                .isEqualTo(moved.resolve("target/lib") + "/*:" + machine.resolve("drmaa.jar") + "\n");
    }

    @Test
    void aUserWhoMayNotBuildIsToldOnceAndTheCommandStartsWithoutIt() throws Exception {
        assumeTrue(System.getProperty("user.name").equals("root") && Files.isExecutable(Path.of("/usr/sbin/runuser")),
                "needs root, to run the launcher as nobody");
        jarBuiltAgain();
        try (Stream<Path> all = Stream.concat(Files.walk(checkout), Files.walk(machine))) {
            for (Path p : all.toList()) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x"
                        : "rwxr--r--"));
            }
        }
        FileTime before = Files.getLastModifiedTime(archive);

        Run run = koala(List.of("/usr/sbin/runuser", "-u", "nobody", "--"), "jobs");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("jobs from build two\n");
        assertThat(run.err()).isEqualTo("koala: the user commands' class archive " + archive + " is older than the "
                + "build: this command starts without it (slower) until 'bin/koala build' makes it again\n");
        assertThat(Files.getLastModifiedTime(archive)).isEqualTo(before);
    }

    /** The jar packaged again, as a build does: other contents, a later time than the archive's. */
    private void jarBuiltAgain() throws Exception {
        standIn(lib.resolve("koala-cli.jar"), "two");
        Files.setLastModifiedTime(archive, FileTime.from(Files.getLastModifiedTime(archive).toInstant()
                .minus(Duration.ofMinutes(1))));
    }

    private record Run(int status, String out, String err) {
    }

    /** {@code bin/koala ARGS} of the test's checkout, with {@code -Xshare:on} so that an archive it cannot map fails it. */
    private Run koala(List<String> as, String... args) throws Exception {
        List<String> command = new ArrayList<>(as);
        command.addAll(List.of("env", "KOALA_DRMAA_JAR=" + machine.resolve("drmaa.jar"),
                "KOALA_JAVA_OPTS=" + (as.isEmpty() ? "-Xshare:on" : ""), "bash", checkout.resolve("bin/koala").toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("launcher-out", ".txt");
        Path err = Files.createTempFile("launcher-err", ".txt");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("bin/koala ended").isTrue();
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }

    /** A jar whose {@code UserCommands} prints "ARGS[0] from build BUILD" and whose {@code CliTraining} does nothing. */
    private static void standIn(Path jar, String build) throws IOException {
        Path src = Files.createTempDirectory("stand-in");
        try {
            Path pkg = Files.createDirectories(src.resolve("koala/cli"));
            Files.writeString(pkg.resolve("UserCommands.java"), "package koala.cli; public class UserCommands {"
                    + " public static void main(String[] a) { System.out.println(a[0] + \" from build " + build + "\"); } }");
            Files.writeString(pkg.resolve("CliTraining.java"), "package koala.cli; public class CliTraining {"
                    + " public static void main(String[] a) { UserCommands.main(new String[] {\"training\"}); } }");
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            int status = javac.run(null, null, null, "-d", src.toString(), pkg.resolve("UserCommands.java").toString(),
                    pkg.resolve("CliTraining.java").toString());
            assertThat(status).as("stand-in compiled").isZero();
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
                for (String name : List.of("UserCommands", "CliTraining")) {
                    out.putNextEntry(new JarEntry("koala/cli/" + name + ".class"));
                    out.write(Files.readAllBytes(pkg.resolve(name + ".class")));
                    out.closeEntry();
                }
                out.putNextEntry(new JarEntry("build.txt"));
                out.write(build.getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        } finally {
            try (Stream<Path> all = Files.walk(src)) {
                for (Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
