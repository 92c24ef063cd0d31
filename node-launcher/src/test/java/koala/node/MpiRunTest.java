package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.NodeTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The first node of an MPI job of 2 nodes on fs0 and 2 on fs1, as its launcher runs it. */
class MpiRunTest {
    @TempDir
    Path dir;

    @Test
    void theCommandRunsUnderMpirunOverTheJobsHostsWithKoalasLaunchAgent() throws Exception {
        NodeTask task = new NodeTask("RUN", "/usr/bin/python3", List.of("allreduce.py"), Map.of("A", "1"), null, null,
                null, null, List.of("fs0-n1", "fs0-n2", "fs1-n1", "fs1-n2"));

        NodeTask run = MpiRun.under(task, dir, "/usr/bin/java", "/opt/koala/lib/a.jar:/opt/koala/lib/b.jar");

        assertThat(run.executable()).isEqualTo("mpirun");
        assertThat(run.arguments()).containsExactly("--hostfile", dir.resolve("hosts").toString(),
                "--mca", "plm_rsh_agent", "koala-rsh : sh", "--mca", "plm_rsh_no_tree_spawn", "1",
                "--mca", "orte_leave_session_attached", "1", "--mca", "btl", "tcp,self",
                "--mca", "ras", "^gridengine,slurm", "--mca", "plm", "rsh", "-np", "4", "/usr/bin/python3",
                "allreduce.py");
        assertThat(Files.readString(dir.resolve("hosts")))
                .isEqualTo("fs0-n1 slots=1\nfs0-n2 slots=1\nfs1-n1 slots=1\nfs1-n2 slots=1\n");
        assertThat(Files.readString(dir.resolve("koala-rsh"))).endsWith("exec '/usr/bin/java' -XX:TieredStopAtLevel=1 "
                + "-XX:+UseSerialGC -Xshare:auto -cp '/opt/koala/lib/a.jar:/opt/koala/lib/b.jar' koala.node.MpiAgent "
                + "\"$@\"\n");
        assertThat(Files.isExecutable(dir.resolve("koala-rsh"))).isTrue();
        assertThat(run.environment()).containsEntry("A", "1").hasEntrySatisfying("PATH",
                p -> assertThat(p).startsWith(dir + ":"));
    }

    /** MPMD: fs0's component runs the producer, fs1's the consumer; ranks 0-1 and 2-3 of one world. */
    @Test
    void componentsWithTheirOwnProgramsAreAppContextsInRankOrder() {
        NodeTask task = new NodeTask("RUN", "/usr/bin/python3", List.of("producer.py"), Map.of(), null, null, null, null,
                List.of("fs0-n1", "fs0-n2", "fs1-n1", "fs1-n2"), List.of(
                        new NodeTask.MpiApp(2, "/usr/bin/python3", List.of("producer.py")),
                        new NodeTask.MpiApp(2, "/usr/bin/python3", List.of("consumer.py", "--fast"))));

        assertThat(MpiRun.apps(task)).containsExactly("-np", "2", "/usr/bin/python3", "producer.py", ":",
                "-np", "2", "/usr/bin/python3", "consumer.py", "--fast");
    }

    @Test
    void aHostWithSeveralSlotsIsListedOnceWithThemAll() {
        assertThat(MpiRun.hostfile(List.of("fs0-n1", "fs0-n1", "fs1-n3"))).isEqualTo("fs0-n1 slots=2\nfs1-n3 slots=1\n");
    }
}
