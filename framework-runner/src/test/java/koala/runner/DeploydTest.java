package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import koala.api.scheduler.GrowRequest;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.provisioning.PolicyKind;
import org.junit.jupiter.api.Test;

/** What Deployd asks the scheduler to run for each role, from the JDF as {@code koala validate} reads it. */
class DeploydTest {
    private static final String JDF = """
            +( &(jobType = framework)(name = logged)(role = master)(count = 1)(executable = /bin/sleep)
                (arguments = infinity)(provisioning = static)
                (stdout = "/home/alice/logged/master.out") )
             ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = infinity) )
             ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = infinity)
                (stdout = "/home/alice/logged/worker.out")(stderr = "/home/alice/logged/worker.err") )
            """;

    private final JobDescription jdf = JdfParser.parse("logged.jdf", JDF, ClusterCatalog.NONE, PolicyKind.shortNames());
    private final Deployd deployd = new Deployd(jdf, "http://127.0.0.1:7601", "t0ken", "d3vice");

    @Test
    void eachRolesEntitiesWriteWhereItsComponentSays() {
        GrowRequest workers = deployd.request("worker", 2, "initial deployment");
        assertThat(new String[] {workers.stdout(), workers.stderr()})
                .containsExactly("/home/alice/logged/worker.out", "/home/alice/logged/worker.err");

        GrowRequest master = deployd.request("master", 1, "initial deployment");
        assertThat(master.stdout()).isEqualTo("/home/alice/logged/master.out");
        assertThat(master.stderr()).as("no stderr given: where the pilot's goes").isNull();
    }

    @Test
    void aComponentWithoutOutputFilesLeavesItsEntitiesOutputToThePilot() {
        GrowRequest orchestrator = deployd.request("orchestrator", 1, "initial deployment");
        assertThat(orchestrator.stdout()).isNull();
        assertThat(orchestrator.stderr()).isNull();
        assertThat(orchestrator.environment()).containsEntry("KOALA_ROLE", "orchestrator");
        assertThat(orchestrator.arguments()).isEqualTo(List.of("infinity"));
    }

    @Test
    void eachRolesGrowAsksPerNodeWhatItsComponentAsks() {
        JobDescription sized = JdfParser.parse("sized.jdf", """
                +( &(jobType = framework)(name = sized)(role = master)(count = 1)(executable = /bin/sleep)
                    (arguments = infinity)(provisioning = static) )
                 ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = infinity)(memory = 512M) )
                 ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = infinity)
                    (cores = 4)(memory = 8G) )
                """, ClusterCatalog.NONE, PolicyKind.shortNames());
        Deployd sizedDeployd = new Deployd(sized, "http://127.0.0.1:7601", "t0ken", "d3vice");

        GrowRequest workers = sizedDeployd.request("worker", 2, "initial deployment");
        assertThat(new Object[] {workers.cores(), workers.memoryMiB(), workers.gpus()}).containsExactly(4, 8192L, 0);
        GrowRequest orchestrator = sizedDeployd.request("orchestrator", 1, "initial deployment");
        assertThat(new Object[] {orchestrator.cores(), orchestrator.memoryMiB(), orchestrator.gpus()})
                .as("memory alone: one core, no GPU").containsExactly(1, 512L, 0);
        GrowRequest master = sizedDeployd.request("master", 1, "initial deployment");
        assertThat(new Object[] {master.cores(), master.memoryMiB(), master.gpus()}).as("nothing asked")
                .containsOnlyNulls();
    }

    /** {@code jdf-examples/framework-sized.jdf}: workers of 2 cores and 2G, the master and orchestrator of nothing. */
    @Test
    void theSizedExamplesWorkersAreAskedForWithTwoCoresAndTwoGigabytes() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Path.of("..", "jdf-examples", "framework-sized.jdf");
        JobDescription example = JdfParser.parse(file.toString(), java.nio.file.Files.readString(file),
                ClusterCatalog.NONE, PolicyKind.shortNames());
        Deployd exampleDeployd = new Deployd(example, "http://127.0.0.1:7601", "t0ken", "d3vice");

        GrowRequest workers = exampleDeployd.request("worker", 3, "grow request");
        assertThat(new Object[] {workers.nodes(), workers.cores(), workers.memoryMiB(), workers.gpus()})
                .containsExactly(3, 2, 2048L, 0);
        assertThat(exampleDeployd.request("master", 1, "initial deployment").cores()).isNull();
        assertThat(exampleDeployd.request("orchestrator", 1, "initial deployment").cores()).isNull();
    }

    @Test
    void aRoleThatAsksNothingSendsNoResources() {
        for (String role : new String[] {"master", "orchestrator", "worker"}) {
            GrowRequest grow = deployd.request(role, 1, "initial deployment");
            assertThat(new Object[] {grow.cores(), grow.memoryMiB(), grow.gpus()}).as(role).containsOnlyNulls();
        }
    }

    @Test
    void gpusWithoutMemoryLeaveMemoryUnasked() {
        GrowRequest grow = Deployd.sized(deployd.request("worker", 1, "r"), new koala.jdf.NodeResources(1, 0, 2));
        assertThat(new Object[] {grow.cores(), grow.memoryMiB(), grow.gpus()}).containsExactly(1, null, 2);
    }
}
