package koala.fjm;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The FrameworkJobManager stays pure, as the policy modules do ({@code PureModulesTest} in
 * {@code simulator}): it is handed its store, its clock and the allocations it reads, and it opens no
 * connection, database, file or thread of its own and never reads the clock. Each rule is shown
 * failing on a violation planted for it ({@code koala.fjm.planted.PlantedViolations}, in the test
 * sources), so a rule that would pass on anything does not go unnoticed.
 */
@AnalyzeClasses(packages = "koala.fjm", importOptions = ImportOption.DoNotIncludeTests.class)
class FjmPurityTest {
    @ArchTest
    static final ArchRule NO_NETWORK_DATABASE_FILES_OR_THREADS = noClasses().that().resideInAPackage("koala.fjm..")
            .should().dependOnClassesThat().resideInAnyPackage("java.net..", "java.sql..", "javax.sql..", "java.io..",
                    "java.nio..", "java.util.concurrent..", "com.sun.net.httpserver..", "org.eclipse.jetty..",
                    "org.h2..", "com.jcraft.jsch..", "koala.http..", "koala.process..")
            .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
            .because("the registry keeps its records through the store it is given and reads allocations as they are "
                    + "handed in; I/O is the scheduler's");

    @ArchTest
    static final ArchRule NO_CLOCK_READS_OR_SLEEPS = noClasses().that().resideInAPackage("koala.fjm..").should()
            .callMethodWhere(calls(InstantSource.class, "system"))
            .orShould().callMethodWhere(calls(Clock.class, "systemUTC", "systemDefaultZone", "system"))
            .orShould().callMethodWhere(calls(Instant.class, "now"))
            .orShould().callMethodWhere(calls(System.class, "currentTimeMillis", "nanoTime"))
            .orShould().callMethodWhere(calls(Thread.class, "sleep"))
            .because("a registration's time comes from the InstantSource the scheduler gives it");

    @Test
    void eachRuleFindsTheViolationPlantedForIt() {
        var planted = new ClassFileImporter().importPackages("koala.fjm.planted");
        assertFinds(NO_NETWORK_DATABASE_FILES_OR_THREADS.evaluate(planted), "java.sql.Connection", "java.nio.file.Files");
        assertFinds(NO_CLOCK_READS_OR_SLEEPS.evaluate(planted), "Instant.now()");
    }

    private static void assertFinds(EvaluationResult result, String... words) {
        assertThat(result.hasViolation()).isTrue();
        assertThat(String.join("\n", result.getFailureReport().getDetails())).contains(words);
    }

    /** A call to one of the named methods of {@code owner}, whatever its parameters. */
    private static DescribedPredicate<JavaMethodCall> calls(Class<?> owner, String... names) {
        List<String> wanted = List.of(names);
        return DescribedPredicate.describe(owner.getSimpleName() + "." + String.join("/", names) + "()",
                call -> call.getTargetOwner().isEquivalentTo(owner) && wanted.contains(call.getName()));
    }
}
