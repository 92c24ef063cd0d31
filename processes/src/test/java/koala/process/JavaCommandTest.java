package koala.process;

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
                Optional.empty(), Optional.empty(), Map.of(), Optional.empty(), List.of(), "koala.site.AgentMain",
                List.of("--site", "fs1"))
                .withNative(Path.of("/var/lib/koala/native/x"), Optional.of(Path.of("/usr/lib/libjemalloc.so.2")))
                .withEnv(Map.of("SGE_CELL", "fs1"))
                .as("someone-else");

        assertThat(command.commandLine()).containsExactly("runuser", "-u", "someone-else", "--", "/usr/bin/env",
                "SGE_CELL=fs1", "LD_PRELOAD=/usr/lib/libjemalloc.so.2", "/usr/bin/java",
                "-Djava.library.path=/var/lib/koala/native/x", "-cp", "/rt/a.jar:/rt/b.jar", "koala.site.AgentMain",
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

        List<Path> first = RuntimeImage.publish(List.of(dir.resolve("src/classes"), jar), runtime,
                java.time.InstantSource.system());
        List<Path> second = RuntimeImage.publish(List.of(dir.resolve("src/classes"), jar), runtime,
                java.time.InstantSource.system());

        assertThat(second).isEqualTo(first);
        assertThat(first.get(0).getFileName().toString()).as("a class directory goes in as a jar").isEqualTo("0-classes.jar");
        assertThat(first.get(1).getFileName().toString()).isEqualTo("1-lib.jar");
        try (var jarred = new java.util.jar.JarFile(first.get(0).toFile())) {
            assertThat(new String(jarred.getInputStream(jarred.getEntry("koala/A.class")).readAllBytes())).isEqualTo("a");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first.get(1)))).isEqualTo("rw-r--r--");
        try (var images = Files.list(runtime)) {
            assertThat(images.filter(p -> !p.getFileName().toString().startsWith("."))).hasSize(1);
        }
    }

    @Test
    void publishingANewImagePrunesOldOnesBeyondTheNewestFiveThatNoProcessUses(@TempDir Path dir) throws Exception {
        Path runtime = Files.createDirectories(dir.resolve("runtime"));
        java.time.Instant now = java.time.Instant.parse("2026-11-21T12:00:00Z");
        // eight images last published 1..8 days ago, newest first; "0000000000000009" only an hour ago
        for (int age = 1; age <= 8; age++) {
            Path image = Files.createDirectories(runtime.resolve(String.format("%016d", age)).resolve("0-lib.jar"));
            Files.setLastModifiedTime(image.getParent(), java.nio.file.attribute.FileTime.from(now.minus(
                    java.time.Duration.ofDays(age))));
        }
        Path recent = Files.createDirectories(runtime.resolve("0000000000000009"));
        Files.setLastModifiedTime(recent, java.nio.file.attribute.FileTime.from(now.minus(java.time.Duration.ofHours(1))));
        Files.createDirectories(runtime.resolve(".staging-123"));
        // class archives: the newest five stay, the sixth (old) goes
        for (int age = 1; age <= 6; age++) {
            Path archive = Files.writeString(runtime.resolve("cds-a" + age + ".jsa"), "cds");
            Files.setLastModifiedTime(archive, java.nio.file.attribute.FileTime.from(now.minus(
                    java.time.Duration.ofDays(age))));
        }

        List<Path> pruned = RuntimeImage.prune(runtime, now, java.util.Set.of("0000000000000007"));

        // kept: the newest five (9, 1, 2, 3, 4) and 7, which a running process names; 5, 6 and 8
        // are older and unused for more than a day
        assertThat(pruned).extracting(p -> p.getFileName().toString()).containsExactly("0000000000000005",
                "0000000000000006", "0000000000000008", "cds-a6.jsa");
        try (var left = Files.list(runtime)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("0000000000000009",
                    "0000000000000001", "0000000000000002", "0000000000000003", "0000000000000004",
                    "0000000000000007", ".staging-123", "cds-a1.jsa", "cds-a2.jsa", "cds-a3.jsa", "cds-a4.jsa",
                    "cds-a5.jsa");
        }
    }

    @Test
    void anImageUsedWithinADayIsKeptHoweverMany(@TempDir Path dir) throws Exception {
        Path runtime = Files.createDirectories(dir.resolve("runtime"));
        java.time.Instant now = java.time.Instant.parse("2026-11-21T12:00:00Z");
        for (int i = 1; i <= 8; i++) {
            Path image = Files.createDirectories(runtime.resolve(String.format("%016d", i)));
            Files.setLastModifiedTime(image, java.nio.file.attribute.FileTime.from(now.minus(java.time.Duration.ofHours(i))));
        }
        assertThat(RuntimeImage.prune(runtime, now, java.util.Set.of())).isEmpty();
    }

    @Test
    void theNativeDirectoryLinksLibdrmaaSoToTheVersionedLibrary(@TempDir Path home) throws Exception {
        Path lib = Files.writeString(home.resolve("libdrmaa.so.1.0"), "elf");
        Path dir = RuntimeImage.nativeDir(home, lib);
        assertThat(Files.readSymbolicLink(dir.resolve("libdrmaa.so"))).isEqualTo(lib);
        assertThat(RuntimeImage.nativeDir(home, lib)).isEqualTo(dir);
    }
}
