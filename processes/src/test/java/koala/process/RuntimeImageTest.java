package koala.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeImageTest {
    /**
     * A class directory published for another host (a standby's image) is the jar the scheduler packs
     * from the directory itself, byte for byte: a head node's agent, named by its jars' checksums, is
     * then the same for both schedulers. File times, and when the packing happens, change nothing.
     */
    @Test
    void aPublishedClassDirectoryIsTheSameJarWhereverAndWheneverItIsPacked(@TempDir Path tmp) throws Exception {
        Path classes = Files.createDirectories(tmp.resolve("site-agent/target/classes"));
        Files.createDirectories(classes.resolve("koala/site"));
        Files.writeString(classes.resolve("koala/site/B.class"), "b");
        Files.writeString(classes.resolve("koala/site/A.class"), "a");
        Files.writeString(classes.resolve("log4j2.xml"), "<Configuration/>");

        List<Path> published = RuntimeImage.publish(List.of(classes), tmp.resolve("runtime"),
                InstantSource.fixed(Instant.parse("2026-12-07T10:00:00Z")));
        Files.setLastModifiedTime(classes.resolve("koala/site/A.class"), FileTime.fromMillis(0));
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        RuntimeImage.writeJar(classes, packed);

        assertThat(published).hasSize(1);
        assertThat(published.get(0).getFileName().toString()).isEqualTo("0-classes.jar");
        assertThat(Files.readAllBytes(published.get(0))).isEqualTo(packed.toByteArray());
        try (var jar = new java.util.jar.JarFile(published.get(0).toFile())) {
            assertThat(jar.stream().map(java.util.zip.ZipEntry::getName))
                    .containsExactly("koala/site/A.class", "koala/site/B.class", "log4j2.xml");
        }
    }
}
