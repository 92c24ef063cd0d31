package koala.estimate;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/**
 * The estimate stays pure: no I/O, no threads, no clock reads. {@code now} is in the snapshot and the draws are
 * seeded, so the scheduler (real time) and the experiment (virtual time) get the same estimates from the same state.
 */
@AnalyzeClasses(packages = "koala.estimate", importOptions = ImportOption.DoNotIncludeTests.class)
class PurityTest {
    @ArchTest
    static final ArchRule NO_IO_OR_THREADS = noClasses().that().resideInAPackage("koala.estimate..").should()
            .dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio..", "java.net..", "java.sql..",
                    "java.util.concurrent..", "java.lang.management..")
            .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
            .because("an estimate is a function of the snapshot, the runtime guess and the seed it is given");

    @ArchTest
    static final ArchRule NO_CLOCK_READS = noClasses().that().resideInAPackage("koala.estimate..").should()
            .callMethodWhere(calls(InstantSource.class, "system"))
            .orShould().callMethodWhere(calls(Clock.class, "systemUTC", "systemDefaultZone", "system"))
            .orShould().callMethodWhere(calls(Instant.class, "now"))
            .orShould().callMethodWhere(calls(System.class, "currentTimeMillis", "nanoTime"))
            .because("now is part of the snapshot");

    private static DescribedPredicate<JavaMethodCall> calls(Class<?> owner, String... names) {
        List<String> wanted = List.of(names);
        return DescribedPredicate.describe(owner.getSimpleName() + "." + String.join("/", names) + "()",
                call -> call.getTargetOwner().isEquivalentTo(owner) && wanted.contains(call.getName()));
    }
}
