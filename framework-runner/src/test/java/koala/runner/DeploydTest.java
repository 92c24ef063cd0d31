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
}
