package koala.scheduler.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * Each architecture rule fails on the violation planted for it (test classes named {@code Planted*}
 * in the packages the rules guard): a rule that finds nothing there would guard nothing.
 */
class GuardsTest {
    private static final JavaClasses PLANTED = new ClassFileImporter().importPackages("koala.scheduler.state",
            "koala.scheduler.claiming", "koala.runner");

    @Test
    void theLifecyclesMayNotReadTheClock() {
        assertFinds(SchedulerArchitectureTest.PURE_NO_CLOCK_READS_OR_SLEEPS, "PlantedViolations.clockRead()",
                "Instant.now()");
    }

    @Test
    void theLifecyclesMayNotTalkToADatabase() {
        assertFinds(SchedulerArchitectureTest.PURE_NO_NETWORK_OR_DATABASE, "PlantedViolations.database()",
                "java.sql.Connection");
    }

    @Test
    void packagesMayNotNeedEachOther() {
        assertFinds(SchedulerArchitectureTest.NO_PACKAGE_CYCLES, "Slice koala.scheduler.claiming",
                "Slice koala.scheduler.state");
    }

    @Test
    void domainCodeMayNotDecideOnAStatus() {
        assertFinds(SchedulerArchitectureTest.STATUSES_AT_THE_EDGE, "PlantedStatusCheck.tryAgain",
                "transientFailure()");
    }

    private static void assertFinds(ArchRule rule, String... words) {
        EvaluationResult result = rule.evaluate(PLANTED);
        assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
        assertThat(String.join("\n", result.getFailureReport().getDetails())).contains(words);
    }
}
