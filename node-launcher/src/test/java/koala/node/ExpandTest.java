package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** One job description for every site: the launcher fills in its own runtime and the node's environment. */
class ExpandTest {
    @Test
    void koalasRuntimeAndTheNodesVariablesAreFilledInAndUnknownOnesStay() {
        Map<String, String> env = Map.of("HOME", "/home/alice", "KOALA_SITE", "fs1");
        assertThat(NodeLauncher.expand("${HOME}/out-${KOALA_SITE}.txt", env)).isEqualTo("/home/alice/out-fs1.txt");
        assertThat(NodeLauncher.expand("${KOALA_CLASSPATH}", env)).isEqualTo(System.getProperty("java.class.path"));
        assertThat(NodeLauncher.expand("${KOALA_JAVA}", env)).endsWith("java");
        assertThat(NodeLauncher.expand("${NOT_SET} and $HOME", env)).isEqualTo("${NOT_SET} and $HOME");
        assertThat(NodeLauncher.expand("price $1", env)).isEqualTo("price $1");
        assertThat(NodeLauncher.expand(null, env)).isNull();
    }

    @Test
    void koalasProgramsClassPathIsTheOneTheSchedulerGaveWhereItGaveOne() {
        System.setProperty("koala.programs.classpath", "/opt/koala/fluent-framework.jar:/opt/koala/http.jar");
        try {
            assertThat(NodeLauncher.expand("-cp ${KOALA_CLASSPATH}", Map.of()))
                    .isEqualTo("-cp /opt/koala/fluent-framework.jar:/opt/koala/http.jar");
        } finally {
            System.clearProperty("koala.programs.classpath");
        }
    }
}
