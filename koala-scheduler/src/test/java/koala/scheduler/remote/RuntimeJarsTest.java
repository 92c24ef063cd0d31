package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeJarsTest {
    @TempDir
    Path dir;

    @Test
    void aClassDirectoryPacksToTheSameChecksumWhateverItsFileTimesAndDrmaaStaysHome() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("site-agent/target/classes/koala/site"));
        Files.writeString(classes.resolve("A.class"), "a");
        Path jar = Files.writeString(dir.resolve("jackson-core-2.18.2.jar"), "not really a jar");
        Path drmaa = Files.writeString(dir.resolve("drmaa.jar"), "the cluster's own");
        Path root = dir.resolve("site-agent/target/classes");

        List<RuntimeJars.Jar> first = RuntimeJars.of(List.of(root, jar, drmaa));
        Files.setLastModifiedTime(classes.resolve("A.class"), FileTime.fromMillis(0));
        List<RuntimeJars.Jar> again = RuntimeJars.of(List.of(root, jar, drmaa));

        assertThat(first).extracting(RuntimeJars.Jar::name).containsExactly("site-agent-classes.jar",
                "jackson-core-2.18.2.jar");
        assertThat(again).extracting(RuntimeJars.Jar::sha256).isEqualTo(first.stream().map(RuntimeJars.Jar::sha256).toList());
        assertThat(first.get(1).sha256()) // sha256sum of "not really a jar"
                .isEqualTo(RuntimeJars.sha256(new java.io.ByteArrayInputStream("not really a jar".getBytes())));
        assertThat(first.get(1).remoteName()).isEqualTo(first.get(1).sha256().substring(0, 20) + "-jackson-core-2.18.2.jar");

        Files.writeString(classes.resolve("A.class"), "b");
        assertThat(RuntimeJars.of(List.of(root)).get(0).sha256()).isNotEqualTo(first.get(0).sha256());
    }

    @Test
    void onlyJarsMissingOrDifferentOnTheHeadNodeAreSent() {
        RuntimeJars.Jar same = new RuntimeJars.Jar("a.jar", "a".repeat(64), null);
        RuntimeJars.Jar corrupt = new RuntimeJars.Jar("b.jar", "b".repeat(64), null);
        RuntimeJars.Jar missing = new RuntimeJars.Jar("c.jar", "c".repeat(64), null);
        String sha256sum = "a".repeat(64) + "  " + same.remoteName() + "\n" + "0".repeat(64) + "  " + corrupt.remoteName() + "\n";
        assertThat(RuntimeJars.toSend(List.of(same, corrupt, missing), sha256sum)).containsExactly(corrupt, missing);
    }

    /** A Slurm site's agent runs on its adapter, shipped as any other jar or class directory: only DRMAA's stays home. */
    @Test
    void theSlurmAdapterIsShippedAsAnyOtherJar() throws Exception {
        Path jar = Files.writeString(dir.resolve("slurm-adapter-0.1.0-SNAPSHOT.jar"), "the adapter");
        Path classes = Files.createDirectories(dir.resolve("slurm-adapter/target/classes/koala/slurm"));
        Files.writeString(classes.resolve("SlurmResourceManager.class"), "s");
        Path drmaa = Files.writeString(dir.resolve("drmaa.jar"), "the cluster's own");

        assertThat(RuntimeJars.of(List.of(jar, dir.resolve("slurm-adapter/target/classes"), drmaa)))
                .extracting(RuntimeJars.Jar::name)
                .containsExactly("slurm-adapter-0.1.0-SNAPSHOT.jar", "slurm-adapter-classes.jar");
    }
}
