package koala.scheduler.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import koala.http.ApiException;

/**
 * What the scheduler's and the runner's docs promise of their code's shape, checked on every build:
 * the pure packages stay pure, packages depend on each other one way, and only the HTTP edge reasons
 * in statuses. {@link GuardsTest} shows that each rule fails on a violation planted for it.
 */
@AnalyzeClasses(packages = {"koala.scheduler", "koala.runner"}, importOptions = ImportOption.DoNotIncludeTests.class)
public class SchedulerArchitectureTest {
    /** The scheduler's job and node lifecycles: transition tables and claim rules, decided from what they are given. */
    static final DescribedPredicate<JavaClass> PURE = resideInAnyPackage("koala.scheduler.claiming..",
            "koala.scheduler.state..").as("classes of the scheduler's claiming and state packages");

    /** Every package under koala.scheduler (the root package too) and koala.runner, each a slice of its own. */
    static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            for (String top : List.of("koala.scheduler", "koala.runner")) {
                String p = c.getPackageName();
                if (p.equals(top)) {
                    return SliceIdentifier.of(top);
                }
                if (p.startsWith(top + ".")) {
                    return SliceIdentifier.of(top + "." + p.substring(top.length() + 1).split("\\.")[0]);
                }
            }
            return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of koala.scheduler and koala.runner, their root packages included";
        }
    };

    @ArchTest
    public static final ArchRule PURE_NO_NETWORK_OR_DATABASE = noClasses().that(PURE).should().dependOnClassesThat()
            .resideInAnyPackage("java.net..", "java.sql..", "javax.sql..", "org.eclipse.jetty..", "org.h2..",
                    "com.jcraft.jsch..", "koala.http..")
            .because("a lifecycle decides from the state it is given; I/O belongs to the daemon around it");

    @ArchTest
    public static final ArchRule PURE_NO_CLOCK_READS_OR_SLEEPS = noClasses().that(PURE).should()
            .callMethodWhere(calls(InstantSource.class, "system"))
            .orShould().callMethodWhere(calls(Clock.class, "systemUTC", "systemDefaultZone", "system"))
            .orShould().callMethodWhere(calls(Instant.class, "now"))
            .orShould().callMethodWhere(calls(System.class, "currentTimeMillis", "nanoTime"))
            .orShould().callMethodWhere(calls(Thread.class, "sleep"))
            .because("time is a parameter, so tests and the simulator move it");

    @ArchTest
    public static final ArchRule NO_PACKAGE_CYCLES = slices().assignedFrom(PACKAGES).should().beFreeOfCycles()
            .because("a package that needs another is needed by none of that one's");

    @ArchTest
    public static final ArchRule STATUSES_AT_THE_EDGE = noClasses().that()
            .resideOutsideOfPackages("koala.scheduler.api..").and().doNotHaveFullyQualifiedName("koala.runner.HttpSchedd")
            .and().doNotHaveFullyQualifiedName("koala.runner.RunnerApi")
            .should().callMethodWhere(calls(ApiException.class, "transientFailure", "refused", "unreached", "status"))
            .because("domain code decides on domain failures (koala.common.failure); which status one was sent as "
                    + "is the HTTP edge's business");

    /** A call to one of the named methods of {@code owner}, whatever its parameters. */
    static DescribedPredicate<JavaMethodCall> calls(Class<?> owner, String... names) {
        List<String> wanted = List.of(names);
        return DescribedPredicate.describe(owner.getSimpleName() + "." + String.join("/", names) + "()",
                call -> call.getTargetOwner().isEquivalentTo(owner) && wanted.contains(call.getName()));
    }
}
