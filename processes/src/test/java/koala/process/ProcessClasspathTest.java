package koala.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessClasspathTest {
    /** The head of a list as dependency:list writes it, with and without a classifier and JPMS names. */
    private static final String LIST = """
            The following files have been resolved:
               io.github.koala-grid:http:jar:0.1.0-SNAPSHOT:compile -- module http (auto)
               org.eclipse.jetty:jetty-server:jar:12.1.14:compile -- module org.eclipse.jetty.server
               org.apache.logging.log4j:log4j-core:jar:2.26.1:runtime
               io.netty:netty-transport-native-epoll:jar:linux-x86_64:4.1.0:compile

            """;

    @Test
    void aListNamesTheModuleAndEveryArtifactItResolved() {
        assertThat(ProcessClasspath.artifacts("site-agent", LIST)).containsExactly("site-agent", "http",
                "jetty-server", "log4j-core", "netty-transport-native-epoll");
    }

    @Test
    void entriesAreKnownByArtifactWhateverTheirVersionOrPlace(@TempDir Path tmp) throws Exception {
        Path classes = Files.createDirectories(tmp.resolve("site-agent/target/classes"));
        Path testClasses = Files.createDirectories(tmp.resolve("site-agent/target/test-classes"));
        assertThat(ProcessClasspath.artifactOf(classes)).isEqualTo("site-agent");
        assertThat(ProcessClasspath.artifactOf(testClasses)).isNotEqualTo("site-agent");
        assertThat(ProcessClasspath.artifactOf(Path.of("/lib/jackson-datatype-jsr310-2.23.0.jar")))
                .isEqualTo("jackson-datatype-jsr310");
        assertThat(ProcessClasspath.artifactOf(Path.of("/lib/commons-configuration2-2.13.0.jar")))
                .isEqualTo("commons-configuration2");
        assertThat(ProcessClasspath.artifactOf(Path.of("/lib/h2-2.3.232.jar"))).isEqualTo("h2");
        assertThat(ProcessClasspath.artifactOf(Path.of("/lib/koala-cli.jar"))).isEqualTo("koala-cli");
        assertThat(ProcessClasspath.artifactOf(Path.of("/usr/share/java/drmaa.jar"))).isEqualTo("drmaa");
        assertThat(ProcessClasspath.artifactOf(Path.of("/m2/site-agent-0.1.0-SNAPSHOT-tests.jar")))
                .isEqualTo("site-agent-0.1.0-SNAPSHOT-tests");
        assertThat(ProcessClasspath.artifactOf(Path.of("/var/lib/koala-shared/runtime/a410/52-node-launcher-0.1.0-SNAPSHOT.jar")))
                .as("a copy RuntimeImage published, numbered by its place").isEqualTo("node-launcher");
        assertThat(ProcessClasspath.artifactOf(Path.of("/var/lib/koala-shared/runtime/a410/57-drmaa.jar"))).isEqualTo("drmaa");
    }

    @Test
    void aProcessGetsItsOwnModuleAndWhatItsBuildListedInTheClassPathsOrder() {
        // processes' own list is made by its build: it runs on grid-config, daemon-api and what they need
        List<Path> classpath = List.of(Path.of("/lib/koala-cli.jar"), Path.of("/lib/processes-0.1.0-SNAPSHOT.jar"),
                Path.of("/lib/h2-2.3.232.jar"), Path.of("/lib/grid-config-0.1.0-SNAPSHOT.jar"),
                Path.of("/lib/jetty-server-12.1.14.jar"), Path.of("/lib/picocli-4.7.7.jar"));
        assertThat(ProcessClasspath.of("processes", classpath)).containsExactly(
                Path.of("/lib/processes-0.1.0-SNAPSHOT.jar"), Path.of("/lib/grid-config-0.1.0-SNAPSHOT.jar"),
                Path.of("/lib/jetty-server-12.1.14.jar"));
    }

    @Test
    void aModuleWithoutAListOrMissingFromTheClassPathIsAnError() {
        assertThatThrownBy(() -> ProcessClasspath.of("no-such-module", List.of()))
                .hasMessageContaining("META-INF/koala/classpath/no-such-module");
        assertThatThrownBy(() -> ProcessClasspath.of("processes", List.of(Path.of("/lib/h2-2.3.232.jar"))))
                .hasMessageContaining("holds no processes module");
    }
}
