package koala.common.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaCommandTest {
    @Test
    void anAgentCommandRunsAsItsAccountWithTheCellEnvironmentAndTheDrmaaLibrary() {
        JavaCommand command = new JavaCommand(Path.of("/usr/bin/java"), List.of(Path.of("/rt/a.jar"), Path.of("/rt/b.jar")),
                Optional.empty(), Optional.empty(), Map.of(), Optional.empty(), List.of(), "koala.sge.AgentMain",
                List.of("--site", "fs1"))
                .withNative(Path.of("/var/lib/koala/native/x"), Optional.of(Path.of("/usr/lib/libjemalloc.so.2")))
                .withEnv(Map.of("SGE_CELL", "fs1"))
                .as("someone-else");

        assertThat(command.commandLine()).containsExactly("runuser", "-u", "someone-else", "--", "/usr/bin/env",
                "SGE_CELL=fs1", "LD_PRELOAD=/usr/lib/libjemalloc.so.2", "/usr/bin/java",
                "-Djava.library.path=/var/lib/koala/native/x", "-cp", "/rt/a.jar:/rt/b.jar", "koala.sge.AgentMain",
                "--site", "fs1");
    }

    @Test
    void noRunuserWhenAlreadyTheRightAccount() {
        JavaCommand command = JavaCommand.of("Main", List.of(Path.of("/a.jar"))).as(System.getProperty("user.name"));
        assertThat(command.commandLine().get(0)).isEqualTo("/usr/bin/env");
    }

    @Test
    void publishingCopiesTheClassPathOnceReadableByAll(@TempDir Path dir) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("src/classes/koala"));
        Files.writeString(classes.resolve("A.class"), "a");
        Path jar = Files.writeString(dir.resolve("src/lib.jar"), "jar");
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-------"));
        Path runtime = dir.resolve("runtime");

        List<Path> first = RuntimeImage.publish(List.of(dir.resolve("src/classes"), jar), runtime);
        List<Path> second = RuntimeImage.publish(List.of(dir.resolve("src/classes"), jar), runtime);

        assertThat(second).isEqualTo(first);
        assertThat(first.get(0).getFileName().toString()).isEqualTo("0-classes");
        assertThat(first.get(1).getFileName().toString()).isEqualTo("1-lib.jar");
        assertThat(Files.readString(first.get(0).resolve("koala/A.class"))).isEqualTo("a");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first.get(1)))).isEqualTo("rw-r--r--");
        try (var images = Files.list(runtime)) {
            assertThat(images.filter(p -> !p.getFileName().toString().startsWith("."))).hasSize(1);
        }
    }

    @Test
    void theNativeDirectoryLinksLibdrmaaSoToTheVersionedLibrary(@TempDir Path home) throws Exception {
        Path lib = Files.writeString(home.resolve("libdrmaa.so.1.0"), "elf");
        Path dir = RuntimeImage.nativeDir(home, lib);
        assertThat(Files.readSymbolicLink(dir.resolve("libdrmaa.so"))).isEqualTo(lib);
        assertThat(RuntimeImage.nativeDir(home, lib)).isEqualTo(dir);
    }
}
